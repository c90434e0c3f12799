// Playwright's webServer command: the real server (node --import tsx src/server/main.ts) on
// a fresh temporary DATA_DIR, removed again when Playwright stops the server. A wrapper,
// because Playwright ends its web server with a signal and leaves no hook to clean up after.
// With E2E_SMTP_PORT (playwright.config.ts), it first starts the customers' mailbox: the SMTP
// sink of the API tests (src/server/test-support/smtp-sink.ts) on that port, the server's SMTP_URL
// pointing at it, and what arrived readable at http://127.0.0.1:$E2E_MAIL_PORT/mails (tests/e2e/mailbox.ts).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { tsImport } from "tsx/esm/api";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(tmpdir(), "streamdesk-e2e-"));

const sink = process.env.E2E_SMTP_PORT
  ? await (await tsImport("../../src/server/test-support/smtp-sink.ts", import.meta.url)).startSmtpSink({
      port: Number(process.env.E2E_SMTP_PORT),
      httpPort: Number(process.env.E2E_MAIL_PORT ?? 0),
    })
  : null;

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

server.on("exit", async (code, signal) => {
  rmSync(dataDir, { recursive: true, force: true });
  await sink?.close();
  process.exit(code ?? (signal ? 0 : 1));
});
