// `npm run bench` (after `vite build`): prints the figures of docs/architecture.md, "Budgets" beside their
// budgets. It reports; it never fails on a figure. Each section is one function, one entry in
// `sections`. A watchdog stops the whole run within nine minutes whatever happens.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { buildApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { startReference } from "./bench-reference";

const root = path.resolve(import.meta.dirname, "..");
const webDist = path.join(root, "dist/web");
const autocannonBin = path.join(root, "node_modules/autocannon/autocannon.js");
const landingBudgetBytes = 120 * 1000; // kB as Vite reports them
const throughputBudgetRatio = 2;
/** ARCHITECTURE.md §10 / issue 15: a cached public read answers at least half as many requests as nginx serving its bytes. */
const nginxBudgetRatio = 0.5;
const loadSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const loadConnections = 50;
const watchdogMs = 540_000;

// ---- helpers ---------------------------------------------------------------------------

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const pad = (text: string, width: number) => text.padEnd(width);

function heading(title: string): void {
  console.log(`\n== ${title} ${"=".repeat(Math.max(0, 72 - title.length))}`);
}

/** Run a command, copying its output line by line with a prefix; killed after timeoutMs. */
function runPrefixed(command: string, args: string[], prefix: string, timeoutMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    const timer = setTimeout(() => {
      console.log(`${prefix}(stopped after ${timeoutMs / 1000} s)`);
      child.kill("SIGTERM");
    }, timeoutMs);
    for (const stream of [child.stdout, child.stderr]) {
      let pending = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        const lines = (pending + chunk).split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) console.log(`${prefix}${line}`);
      });
      stream.on("end", () => pending && console.log(`${prefix}${pending}`));
    }
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/** autocannon in a child process (the server keeps this process's core to itself). */
function load(url: string, seconds: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const args = [autocannonBin, "-j", "-n", "-c", String(loadConnections), "-d", String(seconds), url];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => {
      out += c;
    });
    child.stderr.on("data", (c) => {
      err += c;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), (seconds + 30) * 1000);
    child.on("close", (code) => {
      clearTimeout(timer);
      try {
        const r = JSON.parse(out);
        resolve({
          rps: r.requests.average,
          p50: r.latency.p50,
          p99: r.latency.p99,
          requests: r.requests.total,
          non2xx: r.non2xx,
          errors: r.errors + r.timeouts,
        });
      } catch {
        reject(new Error(`autocannon exited ${code}: ${err.trim() || out.trim()}`));
      }
    });
  });
}

// ---- (a) landing JavaScript before first paint --------------------------------------------

/** The JavaScript the page starts with: every script it loads (module or classic), the entry and
 * chunks app-start.js fetches right after the first paint (data-entry, data-preload), its
 * modulepreloads; and (reported apart) the render-blocking stylesheets. Only app-start.js runs
 * before the first paint, but the whole start-up set is held to the budget. */
function landingAssets(html: string): { scripts: string[]; styles: string[] } {
  const scripts: string[] = [];
  const styles: string[] = [];
  const attr = (tag: string, name: string) => tag.match(new RegExp(`\\s${name}\\s*=\\s*["']([^"']*)["']`, "i"))?.[1];
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attr(tag, "src");
    if (src) scripts.push(src);
    const entry = attr(tag, "data-entry");
    if (entry) scripts.push(entry);
    scripts.push(...(attr(tag, "data-preload") ?? "").split(" ").filter(Boolean));
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attr(tag, "rel")?.toLowerCase();
    const href = attr(tag, "href");
    if (!href) continue;
    if (rel === "modulepreload") scripts.push(href);
    if (rel === "stylesheet") styles.push(href);
  }
  return { scripts: [...new Set(scripts)], styles: [...new Set(styles)] };
}

function gzipSize(href: string): { href: string; raw: number; gzip: number } {
  const file = path.join(webDist, new URL(href, "http://x/").pathname);
  const bytes = readFileSync(file);
  return { href, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

async function landingBundle(): Promise<void> {
  heading("(a) Landing page: JavaScript to start the page (gzip -9; only app-start.js runs before the first paint)");
  const indexHtml = path.join(webDist, "index.html");
  if (!existsSync(indexHtml)) throw new Error("dist/web/index.html is missing: run `npm run build` first");
  const { scripts, styles } = landingAssets(readFileSync(indexHtml, "utf8"));
  if (scripts.length === 0) throw new Error("no <script src> in dist/web/index.html");
  const js = scripts.map(gzipSize);
  const css = styles.map(gzipSize);
  for (const f of js) console.log(`  ${pad(f.href, 52)} ${kb(f.raw).padStart(10)} raw ${kb(f.gzip).padStart(10)} gzip`);
  const jsTotal = js.reduce((sum, f) => sum + f.gzip, 0);
  const verdict = jsTotal <= landingBudgetBytes ? "within budget" : "OVER BUDGET";
  console.log(`  JavaScript total: ${kb(jsTotal)} gzip in ${js.length} file(s) — budget ${kb(landingBudgetBytes)}: ${verdict}`);
  for (const f of css) console.log(`  ${pad(f.href, 52)} ${kb(f.raw).padStart(10)} raw ${kb(f.gzip).padStart(10)} gzip`);
  console.log(`  CSS total: ${kb(css.reduce((sum, f) => sum + f.gzip, 0))} gzip in ${css.length} file(s) (reported, not budgeted)`);
}

// ---- (b) GET /api/packages against a static file of the same bytes --------------------------

async function packagesThroughput(): Promise<void> {
  heading(
    `(b) GET /api/packages vs the same bytes as a static file and from nginx (${loadConnections} connections, ${loadSeconds} s each)`,
  );
  if (!existsSync(path.join(webDist, "index.html"))) throw new Error("dist/web is missing: run `npm run build` first");
  const work = mkdtempSync(path.join(tmpdir(), "streamdesk-bench-"));
  const dist = path.join(work, "web");
  cpSync(webDist, dist, { recursive: true });
  // @fastify/static makes a route per file found at start-up, so the file must exist before
  // the app is built; its bytes are written once the API has answered.
  const staticFile = path.join(dist, "bench-packages.json");
  writeFileSync(staticFile, "[]");
  const config = loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    JOBS: "off",
    DATA_DIR: path.join(work, "data"),
    WEB_DIST_DIR: dist,
    PUBLIC_URL: "http://127.0.0.1",
  });
  const app = await buildApp(config);
  try {
    await app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const api = await fetch(`${base}/api/packages`);
    if (!api.ok) throw new Error(`GET /api/packages answered ${api.status}`);
    const body = Buffer.from(await api.arrayBuffer());
    writeFileSync(staticFile, body);
    const copy = Buffer.from(await (await fetch(`${base}/bench-packages.json`)).arrayBuffer());
    if (!copy.equals(body)) throw new Error("the static copy does not answer the same bytes");
    const count = (JSON.parse(body.toString("utf8")) as { data?: unknown[] }).data?.length ?? 0;
    console.log(`  body: ${body.length} bytes, ${count} packages (uncompressed: autocannon sends no Accept-Encoding)`);

    const reference = await startReference(body);
    const rows: [string, LoadResult][] = [];
    try {
      for (const [label, url] of [
        ["GET /api/packages", `${base}/api/packages`],
        ["GET /bench-packages.json", `${base}/bench-packages.json`],
        ["nginx: the same bytes", reference.url],
      ] as const) {
        await load(url, 2); // warm-up: JIT, caches, connection setup
        rows.push([label, await load(url, loadSeconds)]);
      }
    } finally {
      await reference.stop();
    }
    console.log(`  reference: ${reference.label}`);
    for (const [label, r] of rows) {
      const problems = r.non2xx || r.errors ? `  (${r.non2xx} non-2xx, ${r.errors} errors)` : "";
      console.log(
        `  ${pad(label, 26)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(4)} ms${problems}`,
      );
    }
    // The budget: the static file may be at most 2× faster than the API (below 1× the API is the faster one).
    const ratio = rows[1][1].rps / rows[0][1].rps;
    const verdict = ratio <= throughputBudgetRatio ? "within budget" : "OVER BUDGET";
    console.log(`  static ÷ API = ${ratio.toFixed(2)}× — budget ≤ ${throughputBudgetRatio}×: ${verdict}`);
    const ofNginx = rows[0][1].rps / rows[2][1].rps;
    console.log(
      `  API ÷ nginx = ${ofNginx.toFixed(2)}× — budget ≥ ${nginxBudgetRatio}×: ${ofNginx >= nginxBudgetRatio ? "within budget" : "UNDER BUDGET"}`,
    );
  } finally {
    await app.close();
    rmSync(work, { recursive: true, force: true });
  }
}

// ---- (c) change feed fan-out (scripts/bench-sse.ts) ----------------------------------------

async function sseFanout(): Promise<void> {
  heading("(c) Change feed: one change to many SSE connections (scripts/bench-sse.ts)");
  const script = path.join(root, "scripts/bench-sse.ts");
  if (!existsSync(script)) {
    console.log("  skipped: scripts/bench-sse.ts does not exist yet");
    return;
  }
  const code = await runPrefixed(process.execPath, ["--import", "tsx", script], "  ", 120_000);
  if (code !== 0) throw new Error(`scripts/bench-sse.ts exited ${code}`);
}

// ---- (e) Lighthouse on the landing (scripts/bench-lighthouse.ts) -----------------------------

async function lighthouseLanding(): Promise<void> {
  heading("(e) Lighthouse (mobile) on the landing page (scripts/bench-lighthouse.ts)");
  const code = await runPrefixed(process.execPath, ["--import", "tsx", path.join(root, "scripts/bench-lighthouse.ts")], "  ", 260_000);
  if (code !== 0) throw new Error(`scripts/bench-lighthouse.ts exited ${code}`);
}

// ---- (d) order submissions (scripts/bench-orders.ts) -----------------------------------------

async function ordersUnderLoad(): Promise<void> {
  heading("(d) Orders: 1,000 concurrent submissions (scripts/bench-orders.ts)");
  const target = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  console.log(
    `  on PGlite${target ? " and on PostgreSQL (a database made and dropped for the run)" : "; set BENCH_DATABASE_URL to add PostgreSQL"}`,
  );
  const code = await runPrefixed(process.execPath, ["--import", "tsx", path.join(root, "scripts/bench-orders.ts")], "  ", 130_000);
  if (code !== 0) throw new Error(`scripts/bench-orders.ts exited ${code}`);
}

// ---- (f) provisioning latency (scripts/bench-provisioning.ts) --------------------------------

async function provisioningLatency(): Promise<void> {
  heading("(f) Provisioning: a captured payment to its panel call (scripts/bench-provisioning.ts)");
  const code = await runPrefixed(process.execPath, ["--import", "tsx", path.join(root, "scripts/bench-provisioning.ts")], "  ", 70_000);
  if (code !== 0) throw new Error(`scripts/bench-provisioning.ts exited ${code}`);
}

// ---- run ---------------------------------------------------------------------------------

const sections: [string, () => Promise<void>][] = [
  ["landing bundle", landingBundle],
  ["packages throughput", packagesThroughput],
  ["SSE fan-out", sseFanout],
  ["orders under load", ordersUnderLoad],
  ["provisioning latency", provisioningLatency],
  ["Lighthouse", lighthouseLanding],
];

const watchdog = setTimeout(() => {
  console.error(`\nbench: stopped by the watchdog after ${watchdogMs / 1000} s`);
  process.exit(1);
}, watchdogMs);
watchdog.unref();

const started = Date.now();
let failures = 0;
// `node --import tsx scripts/bench.ts landing Lighthouse` runs only the sections whose names start so.
const only = process.argv.slice(2).map((word) => word.toLowerCase());
for (const [name, run] of sections) {
  if (only.length > 0 && !only.some((word) => name.toLowerCase().startsWith(word))) continue;
  try {
    await run();
  } catch (error) {
    failures++;
    console.error(`  ${name} could not run: ${error instanceof Error ? error.message : String(error)}`);
  }
}
console.log(
  `\nbench finished in ${((Date.now() - started) / 1000).toFixed(0)} s${failures ? `, ${failures} section(s) could not run` : ""}`,
);
// Figures never fail the run; a section that could not measure at all does.
process.exit(failures ? 1 : 0);
