// Backup and restore round trips on the database the project runs (PGlite in a data directory,
// or PostgreSQL with pg_dump/pg_restore), and the refusals: a newer schema, a live server, the
// other kind of backup.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres, openTestDatabase, type TestDatabase } from "@/server/testing";
import { BackupError, backup, knownSchema, PID_FILE, restore } from "./backup";
import { openDatabase } from "./client";
import { rowsOf } from "./rows";
import { packages } from "./schema";

let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), "streamdesk-backup-"));
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

const names = async (db: import("./client").Db) => (await db.select({ name: packages.name }).from(packages)).map((r) => r.name).sort();

/** Marks the database as migrated by a version one migration ahead of this one. */
const addFutureMigration = (db: import("./client").Db) =>
  db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('future', ${knownSchema().latest + 86_400_000})`);

// Each PGlite test boots the database four or five times: seconds apiece on a busy machine.
describe.skipIf(onPostgres())("PGlite (DATA_DIR)", { timeout: 90_000 }, () => {
  it("backs up, and a restore brings the data back, keeping the replaced directory aside", async () => {
    const dataDir = path.join(work, "data");
    const file = path.join(work, "pglite-backup.tar.gz");
    let database = await openDatabase({ dataDir });
    await database.db.insert(packages).values({ name: "Kept", price: 100, duration: "1 Month" });
    await database.close();
    // A directory a live process holds is refused.
    writeFileSync(path.join(dataDir, PID_FILE), String(process.ppid));
    await expect(backup({ dataDir }, file)).rejects.toThrow(/has .* open.*stop the server/);
    rmSync(path.join(dataDir, PID_FILE));

    const { kind } = await backup({ dataDir }, file);
    expect(kind).toBe("pglite");

    database = await openDatabase({ dataDir });
    await database.db.delete(packages).where(eq(packages.name, "Kept"));
    await database.db.insert(packages).values({ name: "After the backup", price: 1, duration: "1 Month" });
    await database.close();

    const { movedAside } = await restore({ dataDir }, file);
    expect(movedAside && existsSync(movedAside)).toBe(true);
    database = await openDatabase({ dataDir });
    expect(await names(database.db)).toEqual(["Kept"]);
    await database.close();
  });

  it("refuses a backup from a newer schema before touching the data directory", async () => {
    const dataDir = path.join(work, "newer");
    const file = path.join(work, "newer.tar.gz");
    const database = await openDatabase({ dataDir });
    await addFutureMigration(database.db);
    await database.close();
    await backup({ dataDir }, file);
    const before = readdirSync(work);
    const failure = await restore({ dataDir }, file).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BackupError);
    expect((failure as Error).message).toMatch(/made by a newer version of StreamDesk.*Nothing was changed/);
    expect(readdirSync(work)).toEqual(before);
  });

  it("refuses a file that is no backup, and a PostgreSQL backup on PGlite", async () => {
    const junk = path.join(work, "junk.bin");
    writeFileSync(junk, "hello");
    await expect(restore({ dataDir: path.join(work, "x") }, junk)).rejects.toThrow(/not a StreamDesk backup/);
    const fake = path.join(work, "fake.dump");
    writeFileSync(fake, "PGDMP....");
    await expect(restore({ dataDir: path.join(work, "x") }, fake)).rejects.toThrow(
      /is a PostgreSQL backup, but this server is configured for PGlite/,
    );
  });
});

const hasPgTools = spawnSync("pg_dump", ["--version"]).status === 0;

describe.skipIf(!onPostgres() || !hasPgTools)("PostgreSQL (DATABASE_URL)", () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openTestDatabase();
  });

  afterAll(async () => {
    await database?.close();
  });

  it("backs up with pg_dump and restores with pg_restore", async () => {
    const target = { databaseUrl: database.url as string, dataDir: "unused" };
    const file = path.join(work, "pg.dump");
    await database.db.insert(packages).values({ name: "Kept", price: 100, duration: "1 Month" });
    expect((await backup(target, file)).kind).toBe("postgres");

    await database.db.delete(packages);
    await database.db.insert(packages).values({ name: "After the backup", price: 1, duration: "1 Month" });
    await restore(target, file);
    expect(await names(database.db)).toEqual(["Kept"]);
    // The change feed's triggers came back with the tables.
    const triggers = await database.db.execute(
      sql`select count(*)::int as n from pg_trigger where tgname like '%notify%' or tgname like '%change%'`,
    );
    expect(Number(rowsOf<{ n: number }>(triggers)[0].n)).toBeGreaterThan(0);
  });

  it("refuses a dump from a newer schema, changing nothing", async () => {
    const target = { databaseUrl: database.url as string, dataDir: "unused" };
    const file = path.join(work, "pg-newer.dump");
    await addFutureMigration(database.db);
    await backup(target, file);
    await database.db.execute(sql`delete from drizzle.__drizzle_migrations where hash = 'future'`);
    await database.db.insert(packages).values({ name: "Still here", price: 1, duration: "1 Month" });
    await expect(restore(target, file)).rejects.toThrow(/made by a newer version of StreamDesk/);
    expect(await names(database.db)).toContain("Still here");
  });
});
