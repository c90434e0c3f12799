// The landing's whole JavaScript (ARCHITECTURE.md §10: with every section shown, ≤ 150 KB gzip
// in ≤ 30 files). Starts the app on a fresh seeded PGlite serving dist/web, opens the landing in
// Debian's Chromium (a phone's width), scrolls to the bottom a screen at a time so every lazy
// section mounts, and counts every script the page fetched, each at gzip -9 of its built file.
// Against scripts/bench-landing-baseline.json (chunk name without its hash → gzip bytes) it names
// the chunks that grew and the new ones, so a growing landing says where it grew. It reports; it
// never fails on a figure. A watchdog stops it within 120 s.
//
//   node --import tsx scripts/bench-landing.ts                 (after `npm run build`)
//   BENCH_LANDING_BASELINE=write node --import tsx scripts/bench-landing.ts   (record today's chunks as the baseline)
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { buildApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/e2e/chromium";

const BUDGET_BYTES = 150 * 1000;
const BUDGET_FILES = 30;
/** a chunk counts as grown past this many gzip bytes */
const GROWTH_NOISE = 200;
const root = path.resolve(import.meta.dirname, "..");
const webDist = path.join(root, "dist/web");
const baselineFile = path.join(root, "scripts/bench-landing-baseline.json");

const watchdog = setTimeout(() => {
  console.error("bench-landing: stopped by its 120 s watchdog");
  process.exit(2);
}, 120_000);
watchdog.unref();

/** `vendor-CicNEQb2.js` → `vendor.js`: the name a chunk keeps from build to build. */
const stem = (file: string) => file.replace(/-[A-Za-z0-9_-]{8}(\.js)$/, "$1");

if (!existsSync(path.join(webDist, "index.html"))) throw new Error("dist/web is missing: run `npm run build` first");
const work = mkdtempSync(path.join(tmpdir(), "streamdesk-landing-"));
cpSync(webDist, path.join(work, "web"), { recursive: true });
const ssrDist = path.join(webDist, "..", "ssr");
if (existsSync(ssrDist)) cpSync(ssrDist, path.join(work, "ssr"), { recursive: true });
const app = await buildApp(
  loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    JOBS: "off",
    DATA_DIR: path.join(work, "data"),
    WEB_DIST_DIR: path.join(work, "web"),
  }),
);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  await app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const scripts = new Set<string>();
  let lastRequestAt = Date.now();
  page.on("request", (request) => {
    lastRequestAt = Date.now();
    const url = new URL(request.url());
    if (url.origin === base && url.pathname.endsWith(".js")) scripts.add(url.pathname);
  });
  await page.goto(`${base}/`, { waitUntil: "load" });
  // A screen at a time to the bottom (every lazy section mounts), then until nothing new is fetched for 1.5 s.
  for (let i = 0; i < 60; i++) {
    const atBottom = await page.evaluate(() => {
      window.scrollBy(0, window.innerHeight * 0.8);
      return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
    });
    await page.waitForTimeout(250);
    if (atBottom && Date.now() - lastRequestAt > 1500) break;
  }
  while (Date.now() - lastRequestAt < 1500) await page.waitForTimeout(250);

  const files = [...scripts]
    .filter((href) => existsSync(path.join(webDist, href)))
    .map((href) => ({ href, gzip: gzipSync(readFileSync(path.join(webDist, href)), { level: 9 }).length }))
    .sort((a, b) => b.gzip - a.gzip);
  const total = files.reduce((sum, f) => sum + f.gzip, 0);
  const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
  for (const f of files) console.log(`${f.href.padEnd(56)} ${kb(f.gzip).padStart(9)} gzip`);
  console.log(`all JavaScript with every section shown: ${kb(total)} gzip in ${files.length} files`);
  console.log(
    `budget ≤ ${kb(BUDGET_BYTES)} in ≤ ${BUDGET_FILES} files: ${total <= BUDGET_BYTES && files.length <= BUDGET_FILES ? "met" : "NOT met"}`,
  );

  // Against the baseline: the chunks that grew, the new ones.
  const now = Object.fromEntries(files.map((f) => [stem(path.basename(f.href)), f.gzip]));
  if (process.env.BENCH_LANDING_BASELINE === "write") {
    writeFileSync(baselineFile, `${JSON.stringify(now, null, 2)}\n`);
    console.log(`baseline written: ${path.relative(root, baselineFile)}`);
  } else if (existsSync(baselineFile)) {
    const before = JSON.parse(readFileSync(baselineFile, "utf8")) as Record<string, number>;
    const grown = Object.entries(now).filter(([name, bytes]) => before[name] === undefined || bytes - before[name] > GROWTH_NOISE);
    const beforeTotal = Object.values(before).reduce((a, b) => a + b, 0);
    console.log(`against the baseline (${kb(beforeTotal)} in ${Object.keys(before).length} files):`);
    if (grown.length === 0) console.log("  no chunk grew");
    for (const [name, bytes] of grown) {
      console.log(before[name] === undefined ? `  new: ${name} ${kb(bytes)}` : `  grew: ${name} ${kb(before[name])} → ${kb(bytes)}`);
    }
  } else {
    console.log("no baseline yet (BENCH_LANDING_BASELINE=write records one)");
  }
  const summary = (figure: string, value: string, budget: string, ok: boolean) =>
    console.log(`SUMMARY ${JSON.stringify({ figure, value, budget, ok })}`);
  summary("landing: all JavaScript, every section (gzip)", kb(total), `≤ ${kb(BUDGET_BYTES)}`, total <= BUDGET_BYTES);
  summary("landing: script files, every section", String(files.length), `≤ ${BUDGET_FILES}`, files.length <= BUDGET_FILES);
} finally {
  await browser.close();
  await app.close();
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
