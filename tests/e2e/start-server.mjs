// Playwright's webServer command: the real server (node --import tsx src/server/main.ts) on
// a fresh temporary DATA_DIR, removed again when Playwright stops the server. A wrapper,
// because Playwright ends its web server with a signal and leaves no hook to clean up after.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "streamdesk-e2e-"));

const server = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir },
  stdio: "inherit",
});

const stop = (signal) => {
  if (server.exitCode === null && server.signalCode === null) server.kill(signal);
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));

server.on("exit", (code, signal) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? (signal ? 0 : 1));
});
