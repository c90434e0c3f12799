// `npm run dev`: the API server (restarted on change by node --watch) and the Vite dev server
// (hot reload; it proxies /api to API_URL) side by side. Ctrl-C stops both; if either one
// dies, the other is stopped too, so a half-running setup never lingers.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const apiPort = process.env.PORT ?? "8080";

const children = [
  {
    name: "api",
    args: ["--import", "tsx", "--watch", "src/server/main.ts"],
    env: { NODE_ENV: "development", PORT: apiPort, DATA_DIR: process.env.DATA_DIR ?? "./data" },
  },
  {
    name: "web",
    args: [path.join(root, "node_modules/vite/bin/vite.js")],
    env: { API_URL: process.env.API_URL ?? `http://127.0.0.1:${apiPort}` },
  },
].map(({ name, args, env }) => {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  prefixLines(child.stdout, process.stdout, name);
  prefixLines(child.stderr, process.stderr, name);
  return { name, child };
});

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

let stopping = false;
let exitCode = 0;

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

for (const { name, child } of children) {
  child.on("exit", (code, signal) => {
    if (!stopping) {
      console.error(`[dev] ${name} stopped (${signal ?? `exit ${code}`}); stopping the other one.`);
      exitCode = code || 1;
      stopAll("SIGTERM");
    }
    if (children.every(({ child: c }) => c.exitCode !== null || c.signalCode !== null)) process.exit(exitCode);
  });
}

process.on("SIGINT", () => stopAll("SIGINT"));
process.on("SIGTERM", () => stopAll("SIGTERM"));
