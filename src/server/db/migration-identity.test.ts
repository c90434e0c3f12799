// Migration 0010 (issue 24) on rows typed before it: WhatsApp numbers in every form people type
// become 27… digits, and a number two clients shared stays with the one whose term runs while
// the other is flagged as a possible duplicate (nothing deleted or blanked). On PGlite and, with
// TEST_DATABASE_URL, on PostgreSQL.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres } from "@/server/testing";
import { MIGRATIONS_DIR } from "./client";

interface Runner {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

/** The migrations folder as it stood before 0010: the same files, the journal cut after 0009. */
function foldersBefore(tag: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "sd-migrations-"));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => e.tag === tag);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

async function openRunner(): Promise<Runner> {
  if (!onPostgres()) {
    const client = new PGlite();
    const db = drizzlePglite(client);
    return {
      query: async <T>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows,
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
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
  return {
    query: async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[],
    migrate: (folder) => migratePg(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

let db: Runner;
let before: string;

beforeAll(async () => {
  if (onPostgres()) console.info("migration-identity: running on PostgreSQL");
  else console.info("migration-identity: running on PGlite (PostgreSQL too when TEST_DATABASE_URL is set)");
  db = await openRunner();
  before = foldersBefore("0010_identity");
  await db.migrate(before);
});

afterAll(async () => {
  await db?.close();
  if (before) rmSync(before, { recursive: true, force: true });
});

const addClient = (username: string, whatsapp: string, extra: { status?: string; end?: string; created?: string } = {}) =>
  db.query<{ id: string }>(
    `insert into clients (username, password_hash, full_name, whatsapp, status, subscription_end, created_at)
     values ($1, 'x', $1, $2, $3, $4, coalesce($5::timestamptz, now())) returning id`,
    [username, whatsapp, extra.status ?? "pending", extra.end ?? null, extra.created ?? null],
  );

describe("migration 0010 on numbers typed before it", () => {
  it("stores every client's and lead's number as 27… and flags the second holder of a number, keeping the running term's client", async () => {
    const [typedLocal] = await addClient("local", "082 111 2222", { status: "expired", created: "2026-01-01T00:00:00Z" });
    const [typedPlus] = await addClient("plus", "+27 82 111 2222", {
      status: "active",
      end: "2027-01-01T00:00:00Z",
      created: "2026-06-01T00:00:00Z",
    });
    const [intl] = await addClient("intl", "0027 83 444 5555");
    const [plain] = await addClient("plain", "27846667777");
    const [none] = await addClient("none", "");
    await db.query(
      `insert into leads (form_type, name, whatsapp, whatsapp_digits) values ('order', 'Lead', '072 000 1111', '27720001111'), ('interest', 'Lead 2', '+27 (72) 000-2222', '')`,
    );

    await db.migrate(MIGRATIONS_DIR);

    const rows = await db.query<{ id: string; whatsapp: string; possible_duplicate_of: string | null; notes: string }>(
      "select id, whatsapp, possible_duplicate_of, notes from clients",
    );
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    expect(byId[typedLocal.id].whatsapp).toBe("27821112222");
    expect(byId[typedPlus.id].whatsapp).toBe("27821112222");
    expect(byId[intl.id].whatsapp).toBe("27834445555");
    expect(byId[plain.id].whatsapp).toBe("27846667777");
    expect(byId[none.id].whatsapp).toBe("");
    // The client whose term runs keeps the number; the other is flagged, its number kept.
    expect(byId[typedPlus.id].possible_duplicate_of).toBeNull();
    expect(byId[typedLocal.id].possible_duplicate_of).toBe(typedPlus.id);
    expect(byId[typedLocal.id].notes).toContain("possible duplicate");
    expect(rows.filter((r) => r.possible_duplicate_of)).toHaveLength(1);

    const leadRows = await db.query<{ whatsapp: string; whatsapp_digits: string }>(
      "select whatsapp, whatsapp_digits from leads order by name",
    );
    expect(leadRows).toEqual([
      { whatsapp: "27720001111", whatsapp_digits: "27720001111" },
      { whatsapp: "27720002222", whatsapp_digits: "27720002222" },
    ]);

    // From now on the database itself refuses a second standing holder of a number.
    await expect(addClient("third", "27821112222")).rejects.toThrow(/clients_whatsapp_unique/);
  });
});
