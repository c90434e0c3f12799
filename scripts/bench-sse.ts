// Change-feed fan-out bench (ARCHITECTURE.md §10: a change reaches 10,000 open SSE connections
// over two processes in under 250 ms, p95, at ≤ 150 KB of server memory per open stream). Opens
// N connections to GET /api/events?tables=packages, writes a change to a package row, and times
// its arrival on every connection. Clients come from many loopback addresses (127.1.x.y), ten
// each, since the server holds one address to SSE_MAX_PER_ADDRESS (10) streams, and are held by
// child processes of 2,500 streams each (one process reading 10,000 sockets would itself be
// most of what is timed). It reports; it never fails on a figure. A watchdog stops everything
// within 170 s whatever happens.
//
//   node --import tsx scripts/bench-sse.ts [--connections=N] [--processes=P] [--rounds=3] [--json]
//       starts its own servers in child processes, so they do not share an event loop with the
//       clients measuring them: with BENCH_DATABASE_URL (or TEST_DATABASE_URL) P processes (2)
//       on a PostgreSQL database made and dropped for the run, 10,000 connections by default;
//       without, one process on an in-memory PGlite, 1,000 connections;
//   DATABASE_URL=postgres://… node --import tsx scripts/bench-sse.ts http://host:port [...]
//       against a running server; the change is written straight into that server's
//       PostgreSQL (a PGlite server cannot be written from another process).
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import net, { type AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { asc, eq, sql } from "drizzle-orm";
import pg from "pg";

const WATCHDOG_MS = 170_000;
const ROUND_TIMEOUT_MS = 5_000;
const OPEN_BATCH = 100;
const BUDGET_P95_MS = 250;
const BUDGET_KB_PER_STREAM = 150;
/** streams per client address: the server's default SSE_MAX_PER_ADDRESS */
const PER_ADDRESS = 10;
const CHANGE_MARK = Buffer.from('data: {"table":"packages"');
const OK_STATUS = Buffer.from("HTTP/1.1 200");

interface Options {
  url?: string;
  connections?: number;
  processes?: number;
  rounds: number;
  json: boolean;
  serve: boolean;
  /** client mode (a child): the range of client indices this process opens, "start:end" */
  clients?: string;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { rounds: 3, json: false, serve: false };
  for (const arg of argv) {
    const [flag, value] = arg.split("=", 2);
    if (flag === "--connections" || flag === "-n") options.connections = positive(value, flag);
    else if (flag === "--rounds") options.rounds = positive(value, flag);
    else if (flag === "--processes") options.processes = positive(value, flag);
    else if (flag === "--json") options.json = true;
    else if (flag === "--serve") options.serve = true;
    else if (flag === "--clients") options.clients = value;
    else if (/^https?:\/\//.test(arg)) options.url = arg.replace(/\/+$/, "");
    else throw new Error(`unknown argument: ${arg}`);
  }
  return options;
}

function positive(value: string | undefined, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} needs a positive whole number (${flag}=1000)`);
  return n;
}

// ---- server mode (child): own app on an in-memory PGlite; writes a change on request -------

async function serve(): Promise<void> {
  const { buildApp } = await import("../src/server/app");
  const { loadConfig } = await import("../src/server/config");
  const { packages } = await import("../src/server/db/schema");
  // As a shop runs it (jobs on), but quiet: this process's standard output is the bench's channel.
  const databaseUrl = process.env.BENCH_SERVE_DATABASE_URL;
  const config = databaseUrl
    ? loadConfig({ NODE_ENV: "production", LOG_LEVEL: "warn", DATABASE_URL: databaseUrl })
    : loadConfig({ NODE_ENV: "production", LOG_LEVEL: "warn" }, { inMemoryDb: true });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const [first] = await app.db.select({ id: packages.id }).from(packages).orderBy(asc(packages.sort_order)).limit(1);
  if (!first) throw new Error("the seed made no packages");
  process.stdout.write(`ready http://127.0.0.1:${(app.server.address() as AddressInfo).port}\n`);
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line === "write") {
      await app.db.update(packages).set({ updated_at: sql`now()` }).where(eq(packages.id, first.id));
      process.stdout.write(`wrote ${first.id}\n`);
    } else if (line === "rss") {
      process.stdout.write(`rss ${process.memoryUsage().rss}\n`);
    }
  }
  // stdin closed: the bench is done.
  await app.close();
  process.exit(0);
}

/** The child server and a line-oriented request/answer channel to it. */
interface OwnServer {
  url: string;
  ask(command: string, answerPrefix: string): Promise<string>;
  stop(): void;
}

function startOwnServer(databaseUrl?: string): Promise<OwnServer> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--serve"], {
      stdio: ["pipe", "pipe", "inherit"],
      env: { ...process.env, ...(databaseUrl ? { BENCH_SERVE_DATABASE_URL: databaseUrl } : {}) },
    });
    const waiting: { prefix: string; resolve: (rest: string) => void }[] = [];
    const lines = createInterface({ input: child.stdout! });
    let ready = false;
    const stop = () => {
      child.stdin?.end();
      setTimeout(() => child.kill("SIGKILL"), 3000).unref();
    };
    lines.on("line", (line) => {
      if (!ready && line.startsWith("ready ")) {
        ready = true;
        resolve({
          url: line.slice(6),
          ask(command, answerPrefix) {
            return new Promise((answer) => {
              waiting.push({ prefix: answerPrefix, resolve: answer });
              child.stdin?.write(`${command}\n`);
            });
          },
          stop,
        });
        return;
      }
      const index = waiting.findIndex((w) => line.startsWith(`${w.prefix} `));
      if (index < 0) return;
      const [answered] = waiting.splice(index, 1);
      answered.resolve(line.slice(answered.prefix.length + 1));
    });
    child.on("exit", (code) => {
      if (!ready) reject(new Error(`the bench server exited (${code}) before it was ready`));
    });
    child.on("error", reject);
  });
}

// ---- clients -------------------------------------------------------------------------------

interface Client {
  socket: net.Socket;
  /** the round whose change this client has seen, and when */
  seenRound: number;
  arrivedAt: number;
}

/** The loopback address client `i` connects from: ten clients to an address, as the server allows. */
function clientAddress(i: number): string {
  const a = Math.floor(i / PER_ADDRESS);
  return `127.1.${Math.floor(a / 250)}.${1 + (a % 250)}`;
}

/**
 * Open one stream; resolves once the server has answered 200 (subscribed). A bare socket, as a
 * browser's own network thread would be: with 2,500 streams in a process on a shared 2-core
 * machine, the client's own HTTP parsing of each arrival would be timed along with the server.
 * An arrival is kept to a timestamp and a byte search.
 */
function openClient(url: string, round: { n: number }, localAddress: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const socket = net.connect({ host: hostname, port: Number(port), localAddress });
    socket.setNoDelay(true);
    socket.write(`GET /api/events?tables=packages HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`);
    const client: Client = { socket, seenRound: 0, arrivedAt: 0 };
    let subscribed = false;
    socket.on("data", (chunk: Buffer) => {
      const at = performance.timeOrigin + performance.now();
      if (!subscribed) {
        if (!chunk.subarray(0, 12).equals(OK_STATUS)) {
          reject(new Error(`GET /api/events answered ${chunk.subarray(0, 40).toString("latin1").split("\r\n")[0]}`));
          socket.destroy();
          return;
        }
        subscribed = true;
        resolve(client);
      }
      // Only data lines carry changes; heartbeats are comments.
      if (client.seenRound !== round.n && chunk.includes(CHANGE_MARK)) {
        client.seenRound = round.n;
        client.arrivedAt = at;
      }
    });
    socket.on("error", (error) => {
      if (!subscribed) reject(error);
    });
  });
}

// ---- client processes ----------------------------------------------------------------------
// The clients run in child processes of ~2,500 streams each, as 10,000 browsers would not share
// one event loop: one process reading every stream would itself be most of what is timed.
// Arrival times are wall-clock (performance.timeOrigin + now), comparable across processes.

const STREAMS_PER_CLIENT_PROCESS = 2500;

/** Child: open clients [start, end) round-robin over BENCH_SSE_URLS; answer the parent's commands. */
async function clientsProcess(range: string): Promise<void> {
  const [start, end] = range.split(":").map(Number);
  const urls = (process.env.BENCH_SSE_URLS ?? "").split(",");
  const round = { n: 0 };
  const clients: Client[] = [];
  for (let i = start; i < end; i += OPEN_BATCH) {
    const batch = Array.from({ length: Math.min(OPEN_BATCH, end - i) }, (_, j) =>
      openClient(urls[(i + j) % urls.length], round, clientAddress(i + j)),
    );
    clients.push(...(await Promise.all(batch)));
  }
  process.stdout.write(`open ${clients.length}\n`);
  for await (const line of createInterface({ input: process.stdin })) {
    const [command, value, until] = line.split(" ");
    if (command === "round") {
      round.n = Number(value);
      process.stdout.write(`armed ${value}\n`);
    } else if (command === "report") {
      const r = Number(value);
      while (clients.some((c) => c.seenRound !== r) && performance.timeOrigin + performance.now() < Number(until)) {
        await new Promise((res) => setTimeout(res, 5));
      }
      const times = clients.filter((c) => c.seenRound === r).map((c) => c.arrivedAt);
      process.stdout.write(`times ${JSON.stringify(times)}\n`);
    }
  }
  for (const c of clients) c.socket.destroy();
  process.exit(0);
}

interface ClientGroup {
  opened: Promise<number>;
  ask(command: string, answerPrefix: string): Promise<string>;
  stop(): void;
}

function startClientGroup(urls: string[], start: number, end: number): ClientGroup {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), `--clients=${start}:${end}`], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, BENCH_SSE_URLS: urls.join(",") },
  });
  const waiting: { prefix: string; resolve: (rest: string) => void }[] = [];
  const lines = createInterface({ input: child.stdout! });
  lines.on("line", (line) => {
    const index = waiting.findIndex((w) => line.startsWith(`${w.prefix} `));
    if (index < 0) return;
    const [answered] = waiting.splice(index, 1);
    answered.resolve(line.slice(answered.prefix.length + 1));
  });
  const ask = (command: string, answerPrefix: string) =>
    new Promise<string>((answer) => {
      waiting.push({ prefix: answerPrefix, resolve: answer });
      if (command) child.stdin?.write(`${command}\n`);
    });
  const opened = new Promise<number>((resolve, reject) => {
    void ask("", "open").then((n) => resolve(Number(n)));
    child.on("exit", (code) => reject(new Error(`a client process exited (${code}) before its streams were open`)));
  });
  return {
    opened,
    ask,
    stop() {
      child.stdin?.end();
      setTimeout(() => child.kill("SIGKILL"), 3000).unref();
    },
  };
}

// ---- figures -------------------------------------------------------------------------------

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Figures {
  received: number;
  expected: number;
  p50: number;
  p95: number;
  max: number;
}

function figures(latencies: number[], expected: number): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { received: sorted.length, expected, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1) ?? Number.NaN };
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const line = (label: string, f: Figures) =>
  `${label.padEnd(12)} received ${f.received}/${f.expected}   p50 ${ms(f.p50)}   p95 ${ms(f.p95)}   max ${ms(f.max)}`;

// ---- the run -------------------------------------------------------------------------------

async function main(options: Options): Promise<void> {
  const log = (text: string) => {
    if (!options.json) console.log(text);
  };
  const own: OwnServer[] = [];
  let pool: pg.Client | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  const groups: ClientGroup[] = [];
  const cleanup = () => {
    for (const g of groups) g.stop();
    for (const server of own) server.stop();
    void pool?.end().catch(() => {});
  };
  const watchdog = setTimeout(() => {
    console.error(`bench-sse: stopped by its ${WATCHDOG_MS / 1000} s watchdog`);
    cleanup();
    void dropDatabase?.().finally(() => process.exit(2));
    setTimeout(() => process.exit(2), 5000).unref();
  }, WATCHDOG_MS);

  try {
    // How a change is written, and where the servers are.
    let urls: string[];
    let writeChange: () => Promise<void>;
    const postgresAdmin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    let connections = options.connections ?? 1000;
    if (options.url) {
      const databaseUrl = process.env.DATABASE_URL;
      if (!databaseUrl) throw new Error("against a running server, set DATABASE_URL to its PostgreSQL so the bench can write a change");
      urls = [options.url];
      pool = new pg.Client({ connectionString: databaseUrl });
      await pool.connect();
      const found = await pool.query<{ id: string }>("select id from packages order by sort_order limit 1");
      if (!found.rows[0]) throw new Error("that database has no packages to touch");
      const id = found.rows[0].id;
      const client = pool;
      writeChange = async () => {
        await client.query("update packages set updated_at = now() where id = $1", [id]);
      };
      log(`SSE fan-out bench: ${connections} connections to ${options.url} (changes written to DATABASE_URL)`);
    } else if (postgresAdmin) {
      // P processes on one PostgreSQL database: a change written through one reaches every
      // process's streams through LISTEN/NOTIFY, as in production.
      const processes = options.processes ?? 2;
      connections = options.connections ?? 10_000;
      const name = `sd_bench_sse_${randomBytes(4).toString("hex")}`;
      const admin = new pg.Client({ connectionString: postgresAdmin });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      dropDatabase = async () => {
        const dropper = new pg.Client({ connectionString: postgresAdmin });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
        await dropper.end();
      };
      const url = new URL(postgresAdmin);
      url.pathname = `/${name}`;
      // One after the other: the first migrates and seeds.
      for (let i = 0; i < processes; i++) own.push(await startOwnServer(url.toString()));
      urls = own.map((server) => server.url);
      const writer = own[0];
      writeChange = async () => {
        await writer.ask("write", "wrote");
      };
      log(`SSE fan-out bench: ${connections} connections over ${processes} processes on PostgreSQL (child processes, jobs on)`);
    } else {
      own.push(await startOwnServer());
      urls = own.map((server) => server.url);
      const writer = own[0];
      writeChange = async () => {
        await writer.ask("write", "wrote");
      };
      log(
        `SSE fan-out bench: ${connections} connections to its own server at ${urls[0]} (child process, in-memory PGlite; set BENCH_DATABASE_URL for two processes on PostgreSQL)`,
      );
    }

    const rssBefore = await Promise.all(own.map(async (server) => Number(await server.ask("rss", "rss"))));
    const openStart = performance.now();
    const processes = Math.max(1, Math.ceil(connections / STREAMS_PER_CLIENT_PROCESS));
    for (let p = 0; p < processes; p++) {
      const start = Math.floor((p * connections) / processes);
      groups.push(startClientGroup(urls, start, Math.floor(((p + 1) * connections) / processes)));
    }
    const opened = (await Promise.all(groups.map((g) => g.opened))).reduce((a, b) => a + b, 0);
    log(`connected    ${opened}/${connections} in ${ms(performance.now() - openStart)} (${processes} client process(es))`);
    let kbPerStream = Number.NaN;
    if (own.length > 0) {
      const rssAfter = await Promise.all(own.map(async (server) => Number(await server.ask("rss", "rss"))));
      const perProcess = own.map((_, i) => (rssAfter[i] - rssBefore[i]) / 1024 / (opened / own.length));
      kbPerStream = Math.max(...perProcess);
      for (const [i, rss] of rssAfter.entries()) {
        log(
          `server ${i + 1} RSS ${(rss / 1024 / 1024).toFixed(0)} MB with ~${Math.round(opened / own.length)} open streams (+${((rss - rssBefore[i]) / 1024 / 1024).toFixed(0)} MB, ${perProcess[i].toFixed(0)} KB a stream)`,
        );
      }
    }
    await new Promise((r) => setTimeout(r, 2000));

    const all: number[] = [];
    const rounds: Figures[] = [];
    for (let r = 1; r <= options.rounds; r++) {
      await Promise.all(groups.map((g) => g.ask(`round ${r}`, "armed")));
      const writtenAt = performance.timeOrigin + performance.now();
      await writeChange();
      const reports = await Promise.all(groups.map((g) => g.ask(`report ${r} ${writtenAt + ROUND_TIMEOUT_MS}`, "times")));
      const latencies = reports.flatMap((report) => (JSON.parse(report) as number[]).map((t) => t - writtenAt));
      all.push(...latencies);
      const f = figures(latencies, opened);
      rounds.push(f);
      log(line(`round ${r}`, f));
      await new Promise((res) => setTimeout(res, 500));
    }
    const total = figures(all, opened * options.rounds);
    const met = total.p95 < BUDGET_P95_MS && total.received === total.expected;
    log(line("all rounds", total));
    log(`budget       p95 < ${BUDGET_P95_MS} ms: ${met ? "met" : "NOT met"}`);
    const where = `${opened} streams, ${Math.max(1, own.length)} process(es)`;
    log(
      `SUMMARY ${JSON.stringify({ figure: `change feed p95 (${where})`, value: `${total.p95.toFixed(0)} ms${total.received === total.expected ? "" : ` (${total.expected - total.received} missed)`}`, budget: `< ${BUDGET_P95_MS} ms`, ok: met })}`,
    );
    if (!Number.isNaN(kbPerStream)) {
      log(
        `SUMMARY ${JSON.stringify({ figure: "change feed memory a stream", value: `${kbPerStream.toFixed(0)} KB`, budget: `≤ ${BUDGET_KB_PER_STREAM} KB`, ok: kbPerStream <= BUDGET_KB_PER_STREAM })}`,
      );
    }
    if (options.json) console.log(JSON.stringify({ connections: opened, rounds, total, budgetP95Ms: BUDGET_P95_MS, kbPerStream }));
  } finally {
    clearTimeout(watchdog);
    cleanup();
    await new Promise((r) => setTimeout(r, 500));
    await dropDatabase?.();
  }
}

const options = parseArgs(process.argv.slice(2));
if (options.clients) {
  clientsProcess(options.clients).catch((error) => {
    console.error("bench-sse clients:", error instanceof Error ? error.message : error);
    process.exit(1);
  });
} else if (options.serve) {
  serve().catch((error) => {
    console.error("bench-sse server:", error);
    process.exit(1);
  });
} else {
  main(options).then(
    () => process.exit(0),
    (error) => {
      console.error("bench-sse:", error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
