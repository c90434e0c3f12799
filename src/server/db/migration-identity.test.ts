// Migration 0010 (issue 24) on rows typed before it: WhatsApp numbers in every form people type
// become 27… digits, and a number two clients shared stays with the one whose term runs while
// the other is flagged as a possible duplicate (nothing deleted or blanked). On PGlite and, with
// TEST_DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MigrationRunner, openMigrationRunner } from "@/server/test-support/migration-runner";
import { onPostgres } from "@/server/testing";

let db: MigrationRunner;

beforeAll(async () => {
  if (onPostgres()) console.info("migration-identity: running on PostgreSQL");
  else console.info("migration-identity: running on PGlite (PostgreSQL too when TEST_DATABASE_URL is set)");
  db = await openMigrationRunner();
  await db.migrateBefore("0010_identity");
});

afterAll(async () => {
  await db?.close();
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

    await db.migrateAll();

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
