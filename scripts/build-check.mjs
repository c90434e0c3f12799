// Is the build (dist/web, dist/ssr, dist/server) there and newer than its sources?
//   node scripts/build-check.mjs            exit 0 when current, 1 (saying why) when not
//   node scripts/build-check.mjs --build    build when it is not (npm start)
//   node scripts/build-check.mjs --present  only that the built files exist (npm run serve: a
//                                           deployment may carry dist/ without the sources)
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const outputs = ["dist/web/index.html", "dist/ssr/first-screen.js", "dist/server/main.js"];
const inputs = ["src", "public", "index.html", "vite.config.ts", "package.json", "scripts/build-server.mjs"];
const mode = process.argv[2] ?? "--check";

/** The newest file under p (tests excluded: they are not built), as [mtimeMs, path]. */
function newest(p) {
  if (!existsSync(p)) return [0, p];
  const stat = statSync(p);
  if (!stat.isDirectory()) return [stat.mtimeMs, p];
  let best = [0, p];
  for (const entry of readdirSync(p, { withFileTypes: true })) {
    if (/\.test\.tsx?$/.test(entry.name)) continue;
    const found = newest(path.join(p, entry.name));
    if (found[0] > best[0]) best = found;
  }
  return best;
}

function whyStale() {
  const missing = outputs.filter((file) => !existsSync(path.join(root, file)));
  if (missing.length) return `${missing.join(", ")} missing`;
  if (mode === "--present") return null;
  const built = Math.min(...outputs.map((file) => statSync(path.join(root, file)).mtimeMs));
  const [changed, file] = inputs.map((p) => newest(path.join(root, p))).reduce((a, b) => (b[0] > a[0] ? b : a));
  return changed > built ? `${path.relative(root, file)} is newer than the build` : null;
}

const reason = whyStale();
if (!reason) process.exit(0);
if (mode !== "--build") {
  console.error(`The build is not ready: ${reason}. Run \`npm run build\` (it needs the dev dependencies).`);
  process.exit(1);
}
if (!existsSync(path.join(root, "node_modules/.bin/vite"))) {
  console.error(
    `The build is not ready (${reason}) and cannot be made here: vite is a dev dependency (installed with --omit=dev?).\n` +
      "Build where the dev dependencies are installed (`npm ci && npm run build`), then `npm run serve`.",
  );
  process.exit(1);
}
// One line on the terminal, not the build's ~500: its output (both streams, in order) is kept and
// shown only when it fails, so the admin login printed by the first start stays in view.
process.stdout.write(`Building (${reason})… `);
const started = Date.now();
const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ["npm", []];
const child = spawn(npm[0], [...npm[1], "run", "build"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
const output = [];
child.stdout.on("data", (chunk) => output.push(chunk));
child.stderr.on("data", (chunk) => output.push(chunk));
child.on("error", (error) => {
  console.log("failed.");
  console.error(`Could not run the build: ${error.message}`);
  process.exit(1);
});
// Ends by its exit code, not process.exit(): a long output written to a pipe is then all read
// before the process goes.
child.on("close", (code, signal) => {
  const seconds = Math.round((Date.now() - started) / 1000);
  if (code === 0) {
    console.log(`built in ${seconds} s (dist/web, dist/ssr, dist/server).`);
    return;
  }
  console.log(`failed after ${seconds} s. The build's output:`);
  process.stderr.write(Buffer.concat(output));
  console.error(`\nThe build failed (${signal ?? `exit ${code}`}); its output is above. Nothing was started.`);
  process.exitCode = code || 1;
});
