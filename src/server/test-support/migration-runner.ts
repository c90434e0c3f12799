// A fresh database migrated only up to some migration, for tests of what a later migration does
// to rows typed before it: PGlite, or with TEST_DATABASE_URL a database of its own on PostgreSQL
// (dropped on close).
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { MIGRATIONS_DIR } from "@/server/db/client";
import { onPostgres } from "@/server/testing";

export interface MigrationRunner {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  /** every migration up to, not including, `tag` */
  migrateBefore(tag: string): Promise<void>;
  /** the rest */
  migrateAll(): Promise<void>;
  close(): Promise<void>;
}

/** The migrations folder as it stood before `tag`: the same files, the journal cut there. */
function folderBefore(tag: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "sd-migrations-"));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => e.tag === tag);
  if (cut < 0) throw new Error(`no migration ${tag}`);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

export async function openMigrationRunner(): Promise<MigrationRunner> {
  const folders: string[] = [];
  let query: MigrationRunner["query"];
  let migrate: (folder: string) => Promise<void>;
  let close: () => Promise<void>;
  if (!onPostgres()) {
    const client = new PGlite();
    const db = drizzlePglite(client);
    query = async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows;
    migrate = (folder) => migratePglite(db, { migrationsFolder: folder });
    close = () => client.close();
  } else {
    const adminUrl = process.env.TEST_DATABASE_URL as string;
    const name = `sd_migr_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
    // Dropping the database ends any connection still closing: that is expected, not an error.
    pool.on("error", () => {});
    const db = drizzlePg(pool);
    query = async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[];
    migrate = (folder) => migratePg(db, { migrationsFolder: folder });
    close = async () => {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  }
  return {
    query,
    async migrateBefore(tag) {
      const folder = folderBefore(tag);
      folders.push(folder);
      await migrate(folder);
    },
    migrateAll: () => migrate(MIGRATIONS_DIR),
    async close() {
      await close();
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    },
  };
}
