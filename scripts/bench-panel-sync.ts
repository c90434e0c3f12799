// Panel sync at a real reseller's size (issue 42: 2,000 lines read and compared in under 30 s on
// this machine). The app in this process on an embedded PGlite in a temporary data dir, as
// `npm start` runs it, against the fake reseller panel on a loopback port holding 2,200 lines
// (2,000 logins, 150 MAG boxes, 50 Enigma2 receivers) and 47 packages. 2,000 of our clients are
// linked to the panel's logins, one in twenty of them differing (switched off, another end date),
// so the sync reads every page, compares every client and writes every difference. Timed twice:
// the first sync (every difference new) and the next (each one refreshed). It reports; it never
// fails on a figure. A watchdog stops it within 150 s.
//
//   node --import tsx scripts/bench-panel-sync.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { FAKE_EXISTING, startFakeXtreamPanel } from "../src/server/adapters/panel/fake-xtream";
import { buildApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { clients } from "../src/server/db/schema";
import { runPanelSync } from "../src/server/modules/panel/sync";

const BUDGET_MS = 30_000;
const LINKED = 2_000;
const watchdog = setTimeout(() => {
  console.error("bench-panel-sync: stopped by the watchdog after 150 s");
  process.exit(1);
}, 150_000);
watchdog.unref();

const fake = await startFakeXtreamPanel({ credits: 1_000 });
const dataDir = mkdtempSync(path.join(tmpdir(), "streamdesk-bench-sync-"));
const app = await buildApp(
  loadConfig({
    NODE_ENV: "production",
    LOG_LEVEL: "silent",
    JOBS: "off",
    HOST: "127.0.0.1",
    PORT: "0",
    DATA_DIR: dataDir,
    PANEL_API_URL: fake.url,
    PANEL_API_KEY: fake.apiKey,
    WEB_DIST_DIR: path.join(tmpdir(), "streamdesk-bench-no-spa"),
  }),
  { seed: true },
);
await app.ready();

try {
  // Our clients, each linked to one of the panel's logins; one in twenty disagrees with the panel.
  const logins = [...fake.lines.values()].filter((l) => l.type === "m3u").slice(0, LINKED);
  const rows = logins.map((line, i) => {
    const end = new Date(line.exp_date * 1000 + (i % 20 === 0 ? 5 * 86_400_000 : 0));
    return {
      username: `sync${i}`,
      full_name: `Sync Bench ${i}`,
      password_hash: "x",
      whatsapp: `2783${String(i).padStart(7, "0")}`,
      status: end > new Date() ? ("active" as const) : ("expired" as const),
      subscription_end: end,
      panel_line_id: line.id,
      line_type: "m3u",
      line_enabled: line.enabled,
    };
  });
  for (let i = 0; i < rows.length; i += 500) await app.db.insert(clients).values(rows.slice(i, i + 500));

  const panelLines = FAKE_EXISTING.m3u + FAKE_EXISTING.mag + FAKE_EXISTING.enigma2;
  const times: number[] = [];
  for (const run of ["first sync (every difference new)", "next sync (each difference refreshed)"]) {
    const started = performance.now();
    const result = await runPanelSync(app, { force: true });
    const ms = performance.now() - started;
    times.push(ms);
    if (!result) throw new Error("the sync did not run");
    console.log(
      `${run}: ${result.lines_read} panel lines read, ${result.checked} clients compared, ${result.flagged} differ, in ${(ms / 1000).toFixed(2)} s (${Math.round(result.lines_read / (ms / 1000))} lines/s)`,
    );
  }
  const slowest = Math.max(...times);
  console.log(`panel: fake reseller API on loopback, ${panelLines} lines in pages of 1,000; database: PGlite in a temporary data dir`);
  console.log(`budget: ${panelLines} lines in < ${BUDGET_MS / 1000} s: ${slowest < BUDGET_MS ? "within" : "OVER"}`);
  console.log(
    `SUMMARY ${JSON.stringify({ figure: `panel sync: ${panelLines} lines read and compared`, value: `${(slowest / 1000).toFixed(1)} s (${Math.round(panelLines / (slowest / 1000))}/s)`, budget: `< ${BUDGET_MS / 1000} s`, ok: slowest < BUDGET_MS })}`,
  );
} finally {
  await app.close();
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
