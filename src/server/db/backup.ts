// Backups of either database into one file, and their restore (`npm run backup -- <file>`,
// `npm run restore -- <file>`, src/server/backup.ts):
// - PGlite (DATA_DIR): PGlite's own dump of the data directory, a gzipped tarball. PGlite is
//   one process's database, so the server must be stopped (the data directory's
//   streamdesk.pid names a live server: refused). Restore moves the current directory aside
//   (<DATA_DIR>.before-restore-<time>) and loads the dump into a fresh one.
// - PostgreSQL (DATABASE_URL): pg_dump's custom format, and pg_restore --clean in one
//   transaction (the servers may run; stop them for a restore, which replaces every table).
// A backup made by a newer StreamDesk (migrations this build does not know) is refused before
// anything is touched: its schema would be newer than this code. An older one is brought up to
// date by the next start's migrations.
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { MIGRATIONS_DIR } from "./client";

export const PID_FILE = "streamdesk.pid";

export class BackupError extends Error {}

export interface BackupTarget {
  /** postgres://… ; when absent, the PGlite data directory */
  databaseUrl?: string;
  dataDir: string;
}

/** The newest migration this build knows (drizzle's journal: `when` is each migration's created_at). */
export function knownSchema(migrationsDir = MIGRATIONS_DIR): { count: number; latest: number } {
  const journal = JSON.parse(readFileSync(path.join(migrationsDir, "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
  return { count: journal.entries.length, latest: Math.max(...journal.entries.map((e) => e.when)) };
}

/** Refuses a backup whose newest applied migration is newer than any this build has. */
export function checkSchema(applied: number[], file: string): void {
  const known = knownSchema();
  const newer = applied.filter((when) => when > known.latest);
  if (newer.length) {
    throw new BackupError(
      `${file} was made by a newer version of StreamDesk: its database has ${newer.length} migration(s) this version does not know ` +
        `(newest ${new Date(Math.max(...newer)).toISOString()}, this version's newest ${new Date(known.latest).toISOString()}). ` +
        "Restore it with that version or a later one. Nothing was changed.",
    );
  }
}

/** A data directory a running server holds (its pid file names a live process). */
export function pgliteInUse(dataDir: string): number | null {
  const file = path.join(dataDir, PID_FILE);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM" ? pid : null;
  }
}

function refuseIfInUse(dataDir: string): void {
  const pid = pgliteInUse(dataDir);
  if (pid) {
    throw new BackupError(
      `The server (pid ${pid}) has ${dataDir} open. PGlite is one process's database: stop the server first ` +
        "(e.g. systemctl stop streamdesk), or run on PostgreSQL for backups while it runs.",
    );
  }
}

function kindOf(file: string): "pglite" | "postgres" | "unknown" {
  const fd = openSync(file, "r");
  const head = Buffer.alloc(5);
  readSync(fd, head, 0, 5, 0);
  closeSync(fd);
  if (head[0] === 0x1f && head[1] === 0x8b) return "pglite";
  if (head.toString("latin1") === "PGDMP") return "postgres";
  return "unknown";
}

/** libpq's environment for a URL: the password never appears on a command line. */
function libpqEnv(url: string): NodeJS.ProcessEnv {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = { ...process.env, PGHOST: decodeURIComponent(u.hostname), PGPORT: u.port || "5432" };
  if (u.username) env.PGUSER = decodeURIComponent(u.username);
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  env.PGDATABASE = decodeURIComponent(u.pathname.replace(/^\//, "")) || "postgres";
  const sslmode = u.searchParams.get("sslmode");
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      err += chunk;
    });
    child.on("error", (error) =>
      reject(
        new BackupError(
          `${command} could not run (${error.message}): install PostgreSQL's client tools (apt-get install postgresql-client).`,
        ),
      ),
    );
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new BackupError(`${command} failed (exit ${code}): ${err.trim()}`))));
  });
}

async function appliedInPglite(client: PGlite): Promise<number[]> {
  const exists = await client.query<{ t: string | null }>("select to_regclass('drizzle.__drizzle_migrations')::text as t");
  if (!exists.rows[0]?.t) return [];
  const rows = await client.query<{ created_at: string | number }>("select created_at from drizzle.__drizzle_migrations");
  return rows.rows.map((r) => Number(r.created_at));
}

/** The migrations a pg_dump file has applied, read from its copy of drizzle's table. */
async function appliedInDump(file: string): Promise<number[]> {
  const sqlText = await run(
    "pg_restore",
    ["--data-only", "--schema=drizzle", "--table=__drizzle_migrations", "--file=-", file],
    process.env,
  );
  const copy = sqlText.match(/COPY drizzle\.__drizzle_migrations \(([^)]*)\) FROM stdin;\n([\s\S]*?)\n\\\./);
  if (!copy) return [];
  const column = copy[1]
    .split(",")
    .map((c) => c.trim())
    .indexOf("created_at");
  return copy[2]
    .split("\n")
    .filter(Boolean)
    .map((line) => Number(line.split("\t")[column]));
}

export async function backup(target: BackupTarget, file: string): Promise<{ kind: string; bytes: number }> {
  const out = path.resolve(file);
  if (target.databaseUrl) {
    await run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${out}`], libpqEnv(target.databaseUrl));
    return { kind: "postgres", bytes: statSync(out).size };
  }
  if (!existsSync(path.join(target.dataDir, "PG_VERSION"))) throw new BackupError(`${target.dataDir} holds no database to back up.`);
  refuseIfInUse(target.dataDir);
  const client = new PGlite({ dataDir: target.dataDir });
  try {
    await client.waitReady;
    // Everything written is on disk before the copy.
    await client.query("checkpoint");
    const dump = await client.dumpDataDir("gzip");
    writeFileSync(out, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
  return { kind: "pglite", bytes: statSync(out).size };
}

export async function restore(target: BackupTarget, file: string): Promise<{ kind: string; movedAside?: string }> {
  const source = path.resolve(file);
  if (!existsSync(source)) throw new BackupError(`${file} does not exist.`);
  const kind = kindOf(source);
  const wanted = target.databaseUrl ? "postgres" : "pglite";
  if (kind === "unknown") throw new BackupError(`${file} is not a StreamDesk backup (neither a PGlite dump nor a pg_dump file).`);
  if (kind !== wanted) {
    throw new BackupError(
      `${file} is a ${kind === "pglite" ? "PGlite (embedded database)" : "PostgreSQL"} backup, but this server is configured for ` +
        `${wanted === "pglite" ? "PGlite (no DATABASE_URL)" : "PostgreSQL (DATABASE_URL)"}.`,
    );
  }

  if (target.databaseUrl) {
    checkSchema(await appliedInDump(source), file);
    await run(
      "pg_restore",
      [
        "--clean",
        "--if-exists",
        "--no-owner",
        "--no-privileges",
        "--single-transaction",
        "--exit-on-error",
        `--dbname=${libpqEnv(target.databaseUrl).PGDATABASE}`,
        source,
      ],
      libpqEnv(target.databaseUrl),
    );
    return { kind };
  }

  refuseIfInUse(target.dataDir);
  const dump = new Blob([readFileSync(source)]);
  // Read the backup in memory first: its schema is checked before the data directory is touched.
  const probe = new PGlite({ loadDataDir: dump });
  try {
    await probe.waitReady;
    checkSchema(await appliedInPglite(probe), file);
  } finally {
    await probe.close();
  }
  let movedAside: string | undefined;
  if (existsSync(target.dataDir)) {
    movedAside = `${target.dataDir.replace(/\/+$/, "")}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    renameSync(target.dataDir, movedAside);
  }
  try {
    const client = new PGlite({ dataDir: target.dataDir, loadDataDir: dump });
    await client.waitReady;
    await client.close();
    rmSync(path.join(target.dataDir, PID_FILE), { force: true });
  } catch (error) {
    // Put the old directory back: a failed restore changes nothing.
    rmSync(target.dataDir, { recursive: true, force: true });
    if (movedAside) renameSync(movedAside, target.dataDir);
    throw error;
  }
  return { kind, movedAside };
}
