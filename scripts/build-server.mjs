// The server as JavaScript: src/server/main.ts and what it imports from src/ bundled by esbuild
// (installed with tsx, a runtime dependency) into dist/server/main.js, packages left as imports
// of node_modules. Files the server reads from disk beside its code go along: the SQL
// migrations into dist/server/migrations (db/client.ts finds them next to the running module).
// `node dist/server/main.js` then needs neither tsx nor any dev dependency.
import { cpSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, "dist", "server");

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const started = Date.now();
const result = await build({
  absWorkingDir: root,
  entryPoints: { main: "src/server/main.ts" },
  outdir: out,
  bundle: true,
  platform: "node",
  format: "esm",
  // Syntax every Node we may start on understands: engines asks for 22.22, but deploy/'s unit runs
  // the machine's own node, which on Debian is 20.
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  alias: { "@": path.join(root, "src") },
  logLevel: "warning",
  metafile: true,
});
cpSync(path.join(root, "src/server/db/migrations"), path.join(out, "migrations"), { recursive: true });

const bytes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith(".js"))
  .map(([file, { bytes }]) => `${path.relative(root, file)} ${(bytes / 1024).toFixed(0)} kB`);
console.log(`server built in ${Date.now() - started} ms: ${bytes.join(", ")} (+ migrations)`);
