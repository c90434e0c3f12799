// `npm run bench` (after `npm run build`): prints the figures of ARCHITECTURE.md §10 / docs/architecture.md,
// "Budgets" beside their budgets, then one summary table of figure, budget and verdict. It
// reports; it never fails on a figure (a section that cannot measure at all does). Each section
// is one function, one entry in `sections`; child scripts add to the summary by printing
// `SUMMARY {"figure","value","budget","ok"}` lines. A watchdog stops the whole run within
// twenty minutes whatever happens. docs/performance.md keeps the last figures.
import { spawn } from "node:child_process";
import { closeSync, cpSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { startReference } from "./bench-reference";

const root = path.resolve(import.meta.dirname, "..");
const webDist = path.join(root, "dist/web");
const autocannonBin = path.join(root, "node_modules/autocannon/autocannon.js");
const landingBudgetBytes = 120 * 1000; // kB as Vite reports them
/** ARCHITECTURE.md §10: a cached public read answers at least 0.7× the requests of nginx serving its bytes, in the default configuration. */
const nginxBudgetRatio = 0.7;
/** ARCHITECTURE.md §10: a hashed static asset at least 0.5× nginx serving the same file. */
const staticBudgetRatio = 0.5;
const loadSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const loadConnections = 50;
const watchdogMs = 1_200_000;

// ---- helpers ---------------------------------------------------------------------------

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const pad = (text: string, width: number) => text.padEnd(width);

function heading(title: string): void {
  console.log(`\n== ${title} ${"=".repeat(Math.max(0, 72 - title.length))}`);
}

/** One line of the closing summary: a figure, its budget (ARCHITECTURE.md §10) and whether it is met. */
interface Verdict {
  figure: string;
  value: string;
  budget: string;
  ok: boolean | null;
}
const summary: Verdict[] = [];

function record(figure: string, value: string, budget: string, ok: boolean | null): void {
  summary.push({ figure, value, budget, ok });
}

/** Figures a child script prints as `SUMMARY {"figure","value","budget","ok"}` lines go into the summary. */
function summaryLine(line: string): boolean {
  const match = /SUMMARY (\{.*\})\s*$/.exec(line);
  if (!match) return false;
  try {
    const v = JSON.parse(match[1]) as Verdict;
    record(v.figure, v.value, v.budget, v.ok);
  } catch {
    return false;
  }
  return true;
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
        for (const line of lines) if (!summaryLine(line)) console.log(`${prefix}${line}`);
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
  record("landing: JavaScript before first paint (gzip)", kb(jsTotal), `≤ ${kb(landingBudgetBytes)}`, jsTotal <= landingBudgetBytes);
  for (const f of css) console.log(`  ${pad(f.href, 52)} ${kb(f.raw).padStart(10)} raw ${kb(f.gzip).padStart(10)} gzip`);
  console.log(`  CSS total: ${kb(css.reduce((sum, f) => sum + f.gzip, 0))} gzip in ${css.length} file(s) (reported, not budgeted)`);
}

// ---- (b) public reads and static files against nginx, in the default configuration ----------

/** A free loopback port. */
async function freePortNumber(): Promise<number> {
  const { freePort } = await import("../src/server/test-support/free-port");
  return freePort();
}

/** The built server (`npm start`'s process) with the defaults a shop runs: LOG_LEVEL info, jobs on; its log to a file. */
async function startBuiltServer(work: string, webDir: string): Promise<{ base: string; logFile: string; stop(): Promise<void> }> {
  const main = path.join(root, "dist/server/main.js");
  if (!existsSync(main)) throw new Error("dist/server/main.js is missing: run `npm run build` first");
  const port = await freePortNumber();
  const logFile = path.join(work, "server.log");
  const out = openSync(logFile, "a");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: path.join(work, "data"),
    WEB_DIST_DIR: webDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ADMIN_EMAIL: "bench@example.test",
    ADMIN_PASSWORD: "bench-password-1",
    // BENCH_LOG_LEVEL=warn shows what the access lines cost (the budget is judged at the default).
    ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
  };
  const child = spawn(process.execPath, ["--enable-source-maps", main], { cwd: root, env, stdio: ["ignore", out, out] });
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the built server exited ${child.exitCode}: see ${logFile}`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > until) throw new Error("the built server did not answer /api/health within 120 s");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    logFile,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await exited;
      }
      closeSync(out);
    },
  };
}

/**
 * Each target measured in `rounds` short runs taken in turn (A, B, C, D, A, B, ...), its figure
 * the median: on a shared machine the load moves during a run, and taking the targets in turn
 * exposes them to the same moments.
 */
async function interleaved(
  targets: readonly (readonly [string, string])[],
  rounds: number,
  seconds: number,
): Promise<Map<string, LoadResult>> {
  const runs = new Map<string, LoadResult[]>(targets.map(([label]) => [label, []]));
  for (const [, url] of targets) await load(url, 2); // warm-up: JIT, caches, connection setup
  for (let round = 0; round < rounds; round++) {
    for (const [label, url] of targets) runs.get(label)?.push(await load(url, seconds));
  }
  const medians = new Map<string, LoadResult>();
  for (const [label, results] of runs) {
    const sorted = [...results].sort((a, b) => a.rps - b.rps);
    medians.set(label, sorted[Math.floor(sorted.length / 2)]);
  }
  return medians;
}

async function publicReads(): Promise<void> {
  heading(`(b) Public reads and static files vs nginx, default configuration (${loadConnections} connections)`);
  if (!existsSync(path.join(webDist, "index.html"))) throw new Error("dist/web is missing: run `npm run build` first");
  const work = mkdtempSync(path.join(tmpdir(), "streamdesk-bench-"));
  const dist = path.join(work, "web");
  cpSync(webDist, dist, { recursive: true });
  const server = await startBuiltServer(work, dist);
  try {
    const { base } = server;
    const api = await fetch(`${base}/api/packages`);
    if (!api.ok) throw new Error(`GET /api/packages answered ${api.status}`);
    const body = Buffer.from(await api.arrayBuffer());
    // The landing's largest script, as a hashed asset.
    const { scripts } = landingAssets(readFileSync(path.join(webDist, "index.html"), "utf8"));
    const largest = scripts
      .filter((href) => href.startsWith("/assets/"))
      .map((href) => ({ href, size: statSync(path.join(webDist, href)).size }))
      .sort((a, b) => b.size - a.size)[0];
    if (!largest) throw new Error("the landing loads no /assets/ script");
    const scriptBytes = readFileSync(path.join(webDist, largest.href));
    const served = Buffer.from(await (await fetch(`${base}${largest.href}`, { headers: { "accept-encoding": "identity" } })).arrayBuffer());
    if (!served.equals(scriptBytes)) throw new Error(`${largest.href} is not served as built`);
    const scriptName = path.basename(largest.href);
    console.log(
      `  server: dist/server/main.js as \`npm start\` runs it (LOG_LEVEL ${process.env.BENCH_LOG_LEVEL ?? "info"}, jobs on; its log to a file)`,
    );
    console.log(
      `  GET /api/packages: ${body.length} bytes; ${largest.href}: ${scriptBytes.length} bytes (no Accept-Encoding: the same bytes both sides)`,
    );

    const reference = await startReference(body, { [scriptName]: scriptBytes });
    const rounds = 3;
    const seconds = Math.max(2, Math.round(loadSeconds / rounds));
    let results: Map<string, LoadResult>;
    try {
      results = await interleaved(
        [
          ["app: GET /api/packages", `${base}/api/packages`],
          ["nginx: the same bytes", reference.url],
          [`app: ${scriptName}`, `${base}${largest.href}`],
          [`nginx: ${scriptName}`, reference.urls[scriptName]],
        ],
        rounds,
        seconds,
      );
    } finally {
      await reference.stop();
    }
    console.log(`  reference: ${reference.label}; each figure the median of ${rounds} runs of ${seconds} s taken in turn`);
    for (const [label, r] of results) {
      const problems = r.non2xx || r.errors ? `  (${r.non2xx} non-2xx, ${r.errors} errors)` : "";
      console.log(
        `  ${pad(label, 40)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(4)} ms${problems}`,
      );
    }
    const logged = readFileSync(server.logFile, "utf8")
      .split("\n")
      .filter((l) => l.includes('"msg":"request"')).length;
    console.log(`  request lines the server logged meanwhile: ${logged}`);
    const rps = (label: string) => results.get(label)?.rps ?? Number.NaN;
    const apiRatio = rps("app: GET /api/packages") / rps("nginx: the same bytes");
    const fileRatio = rps(`app: ${scriptName}`) / rps(`nginx: ${scriptName}`);
    record(
      `GET /api/packages ÷ nginx (LOG_LEVEL ${process.env.BENCH_LOG_LEVEL ?? "info"})`,
      `${apiRatio.toFixed(2)}×`,
      `≥ ${nginxBudgetRatio}×`,
      apiRatio >= nginxBudgetRatio,
    );
    record(`largest landing script ÷ nginx`, `${fileRatio.toFixed(2)}×`, `≥ ${staticBudgetRatio}×`, fileRatio >= staticBudgetRatio);
    console.log(
      `  API ÷ nginx = ${apiRatio.toFixed(2)}× (budget ≥ ${nginxBudgetRatio}×); script ÷ nginx = ${fileRatio.toFixed(2)}× (budget ≥ ${staticBudgetRatio}×)`,
    );
  } finally {
    await server.stop();
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
  const code = await runPrefixed(process.execPath, ["--import", "tsx", script], "  ", 200_000);
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
  const code = await runPrefixed(process.execPath, ["--import", "tsx", path.join(root, "scripts/bench-orders.ts")], "  ", 250_000);
  if (code !== 0) throw new Error(`scripts/bench-orders.ts exited ${code}`);
}

// ---- (a2) the landing's whole JavaScript, every section shown (scripts/bench-landing.ts) -----

async function landingEverySection(): Promise<void> {
  heading("(a2) Landing page: all JavaScript with every section shown, in Chromium (scripts/bench-landing.ts)");
  const code = await runPrefixed(process.execPath, ["--import", "tsx", path.join(root, "scripts/bench-landing.ts")], "  ", 130_000);
  if (code !== 0) throw new Error(`scripts/bench-landing.ts exited ${code}`);
}

// ---- (d2) orders on PostgreSQL against pgbench (scripts/bench-orders-pgbench.ts) -------------

async function ordersAgainstPgbench(): Promise<void> {
  heading("(d2) Orders on PostgreSQL vs pgbench running one order's statements (scripts/bench-orders-pgbench.ts)");
  const code = await runPrefixed(process.execPath, ["--import", "tsx", path.join(root, "scripts/bench-orders-pgbench.ts")], "  ", 160_000);
  if (code !== 0) throw new Error(`scripts/bench-orders-pgbench.ts exited ${code}`);
}

// ---- (f2) panel sync at a reseller's size (scripts/bench-panel-sync.ts) --------------------------

async function panelSync(): Promise<void> {
  heading("(f2) Panel sync: 2,200 panel lines read and compared with 2,000 clients (scripts/bench-panel-sync.ts)");
  const code = await runPrefixed(process.execPath, ["--import", "tsx", path.join(root, "scripts/bench-panel-sync.ts")], "  ", 160_000);
  if (code !== 0) throw new Error(`scripts/bench-panel-sync.ts exited ${code}`);
}

// ---- (f) provisioning latency (scripts/bench-provisioning.ts) --------------------------------

async function provisioningLatency(): Promise<void> {
  heading("(f) Provisioning: a captured payment to its panel call (scripts/bench-provisioning.ts)");
  const code = await runPrefixed(process.execPath, ["--import", "tsx", path.join(root, "scripts/bench-provisioning.ts")], "  ", 160_000);
  if (code !== 0) throw new Error(`scripts/bench-provisioning.ts exited ${code}`);
}

// ---- (g) under abuse: sign-ins hashing while files and health are asked for -----------------

/** A request with a few options fetch lacks (a source address); resolves with the status and time taken. */
function timedRequest(
  url: string,
  options: { method?: string; body?: unknown; from?: string } = {},
): Promise<{ status: number; ms: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const target = new URL(url);
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: options.method ?? "GET",
        localAddress: options.from,
        agent: false,
        headers: body ? { "content-type": "application/json", origin: target.origin } : {},
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    req.on("error", () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

async function underAbuse(): Promise<void> {
  heading("(g) Under abuse: 40 sign-ins at once (scrypt at 2^17) while a file and /api/health are asked for");
  if (!existsSync(path.join(webDist, "index.html"))) throw new Error("dist/web is missing: run `npm run build` first");
  const work = mkdtempSync(path.join(tmpdir(), "streamdesk-bench-"));
  const server = await startBuiltServer(work, webDist);
  try {
    const { base } = server;
    const seconds = Math.max(5, loadSeconds);
    const stopAt = performance.now() + seconds * 1000;
    // 40 sign-ins in flight from 40 addresses (the limits are per address and per account), to
    // accounts that do not exist (hashed all the same), for the whole run.
    const statuses = new Map<number, number>();
    const logins = Array.from({ length: 40 }, async (_, i) => {
      while (performance.now() < stopAt) {
        const r = await timedRequest(`${base}/api/admin/login`, {
          method: "POST",
          body: { email: `nobody-${i}-${Math.random().toString(36).slice(2, 8)}@example.test`, password: "wrong-password-1" },
          from: `127.4.0.${i + 1}`,
        });
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 429 || r.status === 503) await new Promise((res) => setTimeout(res, 250));
      }
    });
    await new Promise((r) => setTimeout(r, 500)); // the pool busy hashing first
    const health: number[] = [];
    const healthChecks = (async () => {
      while (performance.now() < stopAt) {
        health.push((await timedRequest(`${base}/api/health`)).ms);
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    // A file read from disk on every request (not a hashed asset, which is held in memory).
    const file = await load(`${base}/robots.txt`, Math.max(2, seconds - 2));
    await Promise.all([...logins, healthChecks]);
    const worstHealth = Math.max(...health);
    console.log(`  sign-ins answered: ${[...statuses].map(([status, n]) => `${n}× ${status}`).join(", ")}`);
    console.log(`  GET /robots.txt meanwhile: ${file.rps.toFixed(0)} req/s, p50 ${file.p50} ms, p99 ${file.p99} ms`);
    console.log(`  GET /api/health meanwhile: ${health.length} asked, slowest ${worstHealth.toFixed(0)} ms`);
    record("under 40 sign-ins: a file's p99", `${file.p99} ms`, "< 200 ms", file.p99 < 200);
    record("under 40 sign-ins: /api/health slowest", `${worstHealth.toFixed(0)} ms`, "< 1000 ms", worstHealth < 1000);
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

// ---- run ---------------------------------------------------------------------------------

const sections: [string, () => Promise<void>][] = [
  ["landing bundle", landingBundle],
  ["landing every section", landingEverySection],
  ["public reads", publicReads],
  ["SSE fan-out", sseFanout],
  ["orders under load", ordersUnderLoad],
  ["orders vs pgbench", ordersAgainstPgbench],
  ["provisioning latency", provisioningLatency],
  ["panel sync", panelSync],
  ["Lighthouse", lighthouseLanding],
  ["under abuse", underAbuse],
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
    record(`${name}: could not run`, "—", "runs", false);
  }
}

heading("Summary: figure, budget (ARCHITECTURE.md §10), verdict");
const width = Math.max(20, ...summary.map((v) => v.figure.length));
console.log(`  ${pad("figure", width)}  ${pad("measured", 14)}  ${pad("budget", 14)}  verdict`);
for (const v of summary) {
  const verdict = v.ok === null ? "reported" : v.ok ? "met" : "MISSED";
  console.log(`  ${pad(v.figure, width)}  ${pad(v.value, 14)}  ${pad(v.budget, 14)}  ${verdict}`);
}
console.log(
  `\nbench finished in ${((Date.now() - started) / 1000).toFixed(0)} s${failures ? `, ${failures} section(s) could not run` : ""}`,
);
// Figures never fail the run; a section that could not measure at all does.
process.exit(failures ? 1 : 0);
