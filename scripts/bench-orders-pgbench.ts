// Orders on PostgreSQL against pgbench (ARCHITECTURE.md §10: throughput ≥ 0.9× pgbench running
// the same transaction at the same concurrency, every order saved). On a database made and
// dropped for the run:
//   1. records the statements of one order written alone (an app in this process, its pg
//      client watched: the rate-limit hit, the client look-up, then the lead, the recipient cap
//      and the messages in one transaction), and writes them as a pgbench script — parameters
//      inlined, the order's own values (e-mail, number, keys, the lead's id) made unique per
//      transaction with pgbench's :n, so no insert collapses into a conflict and no lock is
//      shared that the app would not share. Under load the app writes the orders that arrive
//      together in one transaction (group commit, decision 012); the reference is the database
//      doing each order's work on its own;
//   2. runs the built server (dist/server/main.js, jobs on, LOG_LEVEL info to a file) and keeps
//      CONCURRENCY orders in flight for SECONDS with autocannon from another process (this one),
//      each order its own customer, counting orders a second and those saved;
//   3. runs pgbench with that script at the same concurrency for the same time (the budget's
//      reference), then with the statements the app sends for BATCH orders arriving together
//      (group commit: each counted, then written in shared transactions), recorded the same way,
//      and reports both in orders a second.
// For both runs it reports the CPU an order cost the database, the client (the app, or pgbench)
// and the load generator, read from /proc: both runs keep the two cores busy, so the ratio is
// about the inverse of those sums. It reports; it never fails on a figure. Needs
// BENCH_DATABASE_URL or TEST_DATABASE_URL, and pgbench (postgresql-client). A watchdog stops it
// within 150 s.
//
//   node --import tsx scripts/bench-orders-pgbench.ts [--seconds=10] [--concurrency=50]
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { buildApp } from "../src/server/app";
import { loadConfig } from "../src/server/config";
import { enforce } from "../src/server/lib/rate-limit";
import { submitOrder } from "../src/server/modules/orders/service";
import { freePort } from "../src/server/test-support/free-port";
import { orderFormSchema } from "../src/shared/schemas";

const BUDGET = 0.9;
const root = path.resolve(import.meta.dirname, "..");
const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const SECONDS = arg("seconds", Number(process.env.BENCH_SECONDS ?? 10));
const CONCURRENCY = arg("concurrency", 50);
/** Orders recorded arriving together, for pgbench's run of the batched transactions the app sends. */
const BATCH = 16;
const MARK = "zqmark";

const watchdog = setTimeout(() => {
  console.error("bench-orders-pgbench: stopped by its 150 s watchdog");
  process.exit(2);
}, 150_000);
watchdog.unref();

const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.log("skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL server");
  console.log(
    `SUMMARY ${JSON.stringify({ figure: "orders on PostgreSQL ÷ pgbench", value: "not measured", budget: `≥ ${BUDGET}×`, ok: null })}`,
  );
  process.exit(0);
}
if (spawnSync("pgbench", ["--version"]).status !== 0) throw new Error("pgbench is not installed (apt-get install -y postgresql-client)");
const pgbenchVersion = spawnSync("pgbench", ["--version"], { encoding: "utf8" }).stdout.trim();

function order(tag: string): Record<string, unknown> {
  const digits = String(1_000_000 + Math.floor(Math.random() * 8_999_999)).slice(-7);
  return {
    name: `Bench Customer ${tag}`,
    email: `${tag}@bench.example.co.za`,
    whatsapp: `+27 81 ${digits}`,
    package: "Month to Month",
    duration: "1 Month",
    device: "android",
    internetPlatform: "fibre",
    otherPlatform: "",
    internetSpeed: "20 Mbps",
    formType: "order",
    marketingOptIn: false,
  };
}

/** A parameter as SQL: the order's marker becomes `:n`, so each pgbench transaction is its own order. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return `'${value.toISOString()}'`;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const quote = (s: string) => `'${s.replaceAll("'", "''")}'`;
  if (!text.includes(MARK) || /^[[{]/.test(text)) return quote(text);
  return `(${text
    .split(MARK)
    .map((part) => quote(part))
    .join(` || '${MARK}' || :n || `)})`;
}

/** `$1` … in a statement replaced by its parameter (right to left, so $10 is not read as $1). */
function inline(text: string, values: readonly unknown[]): string {
  let sql = text;
  for (let i = values.length; i >= 1; i--) sql = sql.replaceAll(`$${i}`, literal(values[i - 1]));
  return `${sql.replace(/\s+/g, " ").trim()};`;
}

/**
 * The order's statements in the order sent. The outbox worker, nudged by the order's messages,
 * may sweep in a transaction of its own on another connection meanwhile: that transaction (its
 * begin, sweep and commit) is not the order's and is left out.
 */
function orderStatements(recorded: readonly { client: pg.Client; sql: string }[]): string[] {
  const dropped = new Set<number>();
  const open = new Map<pg.Client, { indices: number[]; sweep: boolean }>();
  for (const [index, { client, sql }] of recorded.entries()) {
    const sweep = /^UPDATE outbox SET status = 'owner'/.test(sql);
    if (/^begin;$/i.test(sql)) {
      open.set(client, { indices: [index], sweep: false });
      continue;
    }
    const tx = open.get(client);
    if (tx) {
      tx.indices.push(index);
      tx.sweep ||= sweep;
      if (/^(commit|rollback);$/i.test(sql)) {
        if (tx.sweep) for (const i of tx.indices) dropped.add(i);
        open.delete(client);
      }
    } else if (sweep) dropped.add(index);
  }
  const kept = recorded.filter((_, index) => !dropped.has(index)).map((entry) => entry.sql);
  // The order ends with its commit; what follows is the pass its nudge started.
  const end = kept.findLastIndex((sql) => /^commit;$/i.test(sql));
  return end === -1 ? kept : kept.slice(0, end + 1);
}

/** CPU seconds so far: PostgreSQL's processes, the app's, this process's ended children (pgbench), and this one. */
interface CpuSpent {
  database: number;
  client: number;
  pgbench: number;
  self: number;
}
const TICKS = 100; // USER_HZ on Linux

/** utime, stime, cutime, cstime: the 12th to 15th fields after the command's closing parenthesis. */
function ticksOf(stat: string): { own: number; children: number } {
  const fields = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  return { own: fields[11] + fields[12], children: fields[13] + fields[14] };
}

function cpuNow(clientPid: number | undefined): CpuSpent {
  const spent = { database: 0, client: 0, pgbench: 0, self: 0 };
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    const command = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const ticks = ticksOf(stat);
    // A backend that ended is counted in its postmaster's children's time.
    if (command === "postgres") spent.database += (ticks.own + ticks.children) / TICKS;
    else if (Number(entry) === clientPid) spent.client += ticks.own / TICKS;
  }
  spent.pgbench = ticksOf(readFileSync("/proc/self/stat", "utf8")).children / TICKS;
  const own = process.cpuUsage();
  spent.self = (own.user + own.system) / 1e6;
  return spent;
}

/** What was spent between two readings. */
function cpuSince(before: CpuSpent, after: CpuSpent): CpuSpent {
  return {
    database: after.database - before.database,
    client: after.client - before.client,
    pgbench: after.pgbench - before.pgbench,
    self: after.self - before.self,
  };
}

/** The statements the app sends while `run` goes, as pgbench lines, each lead it names given its own id per transaction. */
async function recorded(run: () => Promise<string[]>): Promise<string[]> {
  const statements: { client: pg.Client; sql: string }[] = [];
  const original = pg.Client.prototype.query;
  type Query = string | { text: string; values?: unknown[] };
  (pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }).query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as Query;
    const text = typeof q === "string" ? q : q.text;
    const values = (typeof q === "string" ? args[1] : (q.values ?? args[1])) as unknown[] | undefined;
    statements.push({ client: this, sql: inline(text, values ?? []) });
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  let leadIds: string[];
  try {
    leadIds = await run();
  } finally {
    pg.Client.prototype.query = original;
  }
  // The app names its leads' ids (group commit matches rows by them): each pgbench transaction
  // its own ids, made from :n and the lead's place, in the lead and in the messages that point at it.
  return orderStatements(statements).map((statement) =>
    leadIds.reduce(
      (sql, id, k) => sql.replaceAll(`'${id}'`, `('00000000-0000-4000-8000-' || lpad((:n * ${BATCH} + ${k})::text, 12, '0'))::uuid`),
      statement,
    ),
  );
}

let work = "";
function writeScript(file: string, statements: string[]): string {
  const scriptFile = path.join(work, file);
  writeFileSync(scriptFile, `\\set n random(1, 9999999999)\n${statements.join("\n")}\n`);
  return scriptFile;
}

/** pgbench running `scriptFile` at CONCURRENCY for SECONDS: its transactions a second, how many, and the CPU they cost. */
function pgbench(scriptFile: string): { tps: number; processed: number; cpu: CpuSpent } {
  const before = cpuNow(undefined);
  const run = spawnSync("pgbench", ["-n", "-c", String(CONCURRENCY), "-j", "2", "-T", String(SECONDS), "-f", scriptFile, url.toString()], {
    encoding: "utf8",
    timeout: (SECONDS + 60) * 1000,
  });
  const cpu = cpuSince(before, cpuNow(undefined));
  const tps = Number(/tps = ([\d.]+)/.exec(run.stdout)?.[1]);
  if (!Number.isFinite(tps)) throw new Error(`pgbench failed: ${run.stderr.trim() || run.stdout.trim()}`);
  const processed = Number(/number of transactions actually processed: (\d+)/.exec(run.stdout)?.[1] ?? tps * SECONDS);
  return { tps, processed, cpu };
}

const name = `sd_bench_pgbench_${randomBytes(4).toString("hex")}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
work = mkdtempSync(path.join(tmpdir(), "streamdesk-pgbench-"));
try {
  // 1. The statements of one order.
  const env = {
    NODE_ENV: "production",
    JOBS: "off",
    LOG_LEVEL: "silent",
    DATABASE_URL: url.toString(),
    PUBLIC_WRITE_LIMIT_PER_MIN: "1000000",
  };
  const recorder = await buildApp(loadConfig(env));
  let single: string[];
  let batch: string[];
  try {
    for (let i = 0; i < 3; i++) await recorder.inject({ method: "POST", url: "/api/orders", payload: order(`warm${i}`) });
    // The warm-up orders nudged the outbox worker: its pass (another connection, statements of
    // its own such as failing codes that cannot go) is over before anything is recorded, and
    // this throwaway app's worker is asked for no more passes while its orders are recorded.
    await recorder.outbox.drain();
    (recorder.outbox as { nudge: () => void }).nudge = () => {};
    // An order written alone, as the route writes one that arrives with no other (a free trial,
    // or an order of a batch the database refused): counted, matched, then saved with its
    // messages in one transaction. The reference is the database doing each order's work on its own.
    single = await recorded(async () => {
      const body = order(`${MARK}0`);
      await enforce(recorder.db, [{ key: "orders:ip:127.0.0.1", limit: 1_000_000 }]);
      const saved = await submitOrder(recorder, orderFormSchema.parse(body), { ip: "127.0.0.1", idempotencyKey: null, payload: body });
      return [saved.id];
    });
    // BATCH orders arriving together at the route, as under load: what the app sends for them
    // (group commit, decision 012: each counted, then written in shared transactions).
    batch = await recorded(async () => {
      const answers = await Promise.all(
        Array.from({ length: BATCH }, (_, i) => recorder.inject({ method: "POST", url: "/api/orders", payload: order(`${MARK}${i}x`) })),
      );
      return answers.map((answer) => {
        if (answer.statusCode !== 201) throw new Error(`recording a batch: an order answered ${answer.statusCode} ${answer.body}`);
        return JSON.parse(answer.body).id as string;
      });
    });
  } finally {
    await recorder.close();
  }
  const singleFile = writeScript("order.sql", single);
  console.log(
    `one order alone sends ${single.filter((s) => !/^(begin|commit);$/i.test(s)).length} statements (${path.basename(singleFile)}):`,
  );
  for (const s of single) console.log(`  ${s.slice(0, 110)}${s.length > 110 ? "…" : ""}`);
  const batchFile = writeScript("batch.sql", batch);
  if (process.env.BENCH_SHOW_BATCH) for (const s of batch) console.log(`  ${s.slice(0, 160)}`);
  const transactions = batch.filter((s) => /^commit;$/i.test(s)).length;
  console.log(
    `${BATCH} orders arriving together send ${batch.filter((s) => !/^(begin|commit);$/i.test(s)).length} statements in ${transactions} transaction(s) (${path.basename(batchFile)})`,
  );

  // 2. The app: the built server, CONCURRENCY orders in flight for SECONDS.
  const main = path.join(root, "dist/server/main.js");
  if (!existsSync(main)) throw new Error("dist/server/main.js is missing: run `npm run build` first");
  const port = await freePort();
  const log = openSync(path.join(work, "server.log"), "a");
  const server = spawn(process.execPath, [main], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: url.toString(),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PUBLIC_WRITE_LIMIT_PER_MIN: "1000000",
      ADMIN_EMAIL: "bench@example.test",
      ADMIN_PASSWORD: "bench-password-1",
    },
    stdio: ["ignore", log, log],
  });
  let app: { rate: number; sent: number; saved: number; failed: number };
  let appCpu: CpuSpent;
  try {
    const base = `http://127.0.0.1:${port}`;
    const until = Date.now() + 60_000;
    while (
      !(await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > until || server.exitCode !== null) throw new Error("the built server did not start");
      await new Promise((r) => setTimeout(r, 200));
    }
    const send = (tag: string) =>
      fetch(`${base}/api/orders`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(order(tag)) });
    for (let i = 0; i < 20; i++) await (await send(`warmup${i}`)).arrayBuffer();
    const tag = `run${randomBytes(3).toString("hex")}`;
    let next = 0;
    // The lead id of every order answered 201: each must be in the database afterwards.
    const answered: string[] = [];
    const before = cpuNow(server.pid);
    // autocannon, as the issue measured: fetch's own cost was a sixth of the machine.
    const result = await autocannon({
      url: base,
      connections: CONCURRENCY,
      duration: SECONDS,
      requests: [
        {
          method: "POST",
          path: "/api/orders",
          headers: { "content-type": "application/json" },
          setupRequest: (request) => ({ ...request, body: JSON.stringify(order(`${tag}-${next++}`)) }),
          onResponse: (status, body) => {
            if (status === 201) answered.push(JSON.parse(body).id);
          },
        },
      ],
    });
    appCpu = cpuSince(before, cpuNow(server.pid));
    const sent = answered.length;
    const failed = result.non2xx + result.errors + result.timeouts;
    const elapsed = result.duration;
    const counted = await admin.query(`SELECT 1`); // keep the admin connection alive
    void counted;
    const check = new pg.Client({ connectionString: url.toString() });
    await check.connect();
    const saved = Number((await check.query("SELECT count(*)::int AS n FROM leads WHERE id = ANY($1::uuid[])", [answered])).rows[0].n);
    await check.end();
    app = { rate: sent / elapsed, sent, saved, failed };
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    closeSync(log);
  }

  // 3. pgbench: each order alone (the budget's reference), then the app's batched transactions.
  const alone = pgbench(singleFile);
  const batched = pgbench(batchFile);
  const { tps, processed, cpu: benchCpu } = alone;
  const ratio = app.rate / tps;
  console.log(
    `app (built server, jobs on)   ${app.rate.toFixed(0).padStart(6)} orders/s at ${CONCURRENCY} in flight for ${SECONDS} s: ${app.sent} answered 201, ${app.saved} of them saved, ${app.failed} not 201`,
  );
  console.log(`pgbench (${pgbenchVersion}), ${CONCURRENCY} clients:`);
  console.log(`  each order alone              ${tps.toFixed(0).padStart(6)} orders/s (one order a transaction)`);
  console.log(
    `  the app's batched statements  ${(batched.tps * BATCH).toFixed(0).padStart(6)} orders/s (${BATCH} orders a script run, ${transactions} transaction(s); app ÷ this = ${(app.rate / (batched.tps * BATCH)).toFixed(2)}×)`,
  );
  console.log(`app ÷ pgbench = ${ratio.toFixed(2)}× — budget ≥ ${BUDGET}×: ${ratio >= BUDGET ? "met" : "NOT met"}`);
  const ms = (seconds: number, count: number) => `${((seconds / count) * 1000).toFixed(2)} ms`;
  const perOrder = (appCpu.database + appCpu.client + appCpu.self) / app.sent;
  const perTransaction = (benchCpu.database + benchCpu.pgbench) / processed;
  console.log(
    `CPU an order, app run:     PostgreSQL ${ms(appCpu.database, app.sent)}, the app ${ms(appCpu.client, app.sent)}, autocannon ${ms(appCpu.self, app.sent)}`,
  );
  console.log(`CPU an order, pgbench run: PostgreSQL ${ms(benchCpu.database, processed)}, pgbench ${ms(benchCpu.pgbench, processed)}`);
  // Both runs keep the two cores busy, so the ratio is about the inverse of the CPU an order costs.
  console.log(
    `  on saturated cores the ratio is about ${(perTransaction * 1000).toFixed(2)} ÷ ${(perOrder * 1000).toFixed(2)} ms = ${(perTransaction / perOrder).toFixed(2)}×; ` +
      `were the app and autocannon free, PostgreSQL's own share would still cap it at ${(perTransaction / (appCpu.database / app.sent)).toFixed(2)}×`,
  );
  const allSaved = app.saved === app.sent && app.failed === 0;
  console.log(
    `SUMMARY ${JSON.stringify({ figure: `orders on PostgreSQL ÷ pgbench (${CONCURRENCY} in flight)`, value: `${ratio.toFixed(2)}×`, budget: `≥ ${BUDGET}×`, ok: ratio >= BUDGET })}`,
  );
  console.log(
    `SUMMARY ${JSON.stringify({ figure: "orders on PostgreSQL at that rate: all saved", value: `${app.saved}/${app.sent}, ${app.failed} refused`, budget: "all", ok: allSaved })}`,
  );
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
  await admin.end();
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
