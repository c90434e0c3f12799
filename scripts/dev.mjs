// `npm run dev`: the API server (restarted on change by node --watch) and, once the API answers,
// the Vite dev server (hot reload; it proxies /api to API_URL) side by side. Ctrl-C stops both; if either one
// dies, the other is stopped too, so a half-running setup never lingers.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const apiPort = process.env.PORT ?? "8080";

let stopping = false;
let exitCode = 0;
const apiUrl = process.env.API_URL ?? `http://127.0.0.1:${apiPort}`;
const children = [];

/** Start one child, its output labelled; if either one dies, the other is stopped too. */
function start(name, args, env) {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  prefixLines(child.stdout, process.stdout, name);
  prefixLines(child.stderr, process.stderr, name);
  children.push({ name, child });
  child.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`[dev] ${name} stopped (${signal ?? `exit ${code}`}); ${children.length > 1 ? "stopping the other one" : "stopping"}.`);
      exitCode = code || 1;
      stopAll("SIGTERM");
    }
    if (children.every(({ child: c }) => c.exitCode !== null || c.signalCode !== null)) process.exit(exitCode);
  });
}

/** Whether the API answers a request at all (GET /api/health: 200, or 503 while its database is down). */
async function apiAnswers() {
  try {
    await fetch(`${apiUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

process.on("SIGINT", () => stopAll("SIGINT"));
process.on("SIGTERM", () => stopAll("SIGTERM"));
start("api", ["--import", "tsx", "--watch", "src/server/main.ts"], {
  NODE_ENV: "development",
  PORT: apiPort,
  DATA_DIR: process.env.DATA_DIR ?? "./data",
});
// Vite only once the API answers: its proxy would otherwise greet the first page with
// ECONNREFUSED errors while the API is still migrating and seeding.
console.log(`[dev] waiting for the API on ${apiUrl} before starting Vite…`);
while (!(await apiAnswers())) {
  if (stopping) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
}
if (!stopping) {
  console.log("[dev] the API answers; starting Vite.");
  start("web", [path.join(root, "node_modules/vite/bin/vite.js")], { API_URL: apiUrl });
}

/** Copy a child's output line by line, each line labelled with the child's name. */
function prefixLines(from, to, name) {
  let pending = "";
  from.setEncoding("utf8");
  from.on("data", (chunk) => {
    const lines = (pending + chunk).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) to.write(`[${name}] ${line}\n`);
  });
  from.on("end", () => {
    if (pending) to.write(`[${name}] ${pending}\n`);
  });
}

function stopAll(signal) {
  if (stopping) return;
  stopping = true;
  for (const { child } of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  }
  // A child that ignores the polite signal gets a firm one.
  setTimeout(() => {
    for (const { child } of children) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 5000).unref();
}
