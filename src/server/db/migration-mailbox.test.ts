// Migration 0026 (issue 46 item 3) on leads typed before it: each gets its mailbox (email_key) as
// shared/contact.ts mailboxKey computes it, and of earlier free trials that turn out to share a
// mailbox the first keeps it (the mailbox stays used) while the later ones get a key of their own,
// so the one-trial index can be built over them; nothing is deleted. On PGlite and, with
// TEST_DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MigrationRunner, openMigrationRunner } from "@/server/test-support/migration-runner";
import { mailboxKey } from "@/shared/contact";

const TAG = "0026_leads_email_key_and_sliding_sign_in";
let db: MigrationRunner;

beforeAll(async () => {
  db = await openMigrationRunner();
  await db.migrateBefore(TAG);
});
afterAll(async () => {
  await db?.close();
});

describe("migration 0026 on leads typed before it", () => {
  it("keys every lead by its mailbox, the first of earlier trials sharing one keeping it", async () => {
    const trials = [
      "A.B+1@Gmail.com",
      "ab@googlemail.com", // the same Gmail mailbox: a later trial
      "x.y+t@outlook.com",
      "x.y@outlook.com", // the same Outlook mailbox
      "Q+1@yahoo.com",
      "plain@Example.co.za",
      "+z@gmail.com",
    ];
    for (const [i, email] of trials.entries()) {
      await db.query(
        `insert into leads (form_type, name, email, whatsapp_digits, created_at)
         values ('free-trial', $1, $2, $3, timestamptz '2026-06-01T00:00:00Z' + make_interval(mins => $4::int))`,
        [`Trial ${i}`, email, `2782000010${i}`, i],
      );
    }
    await db.query(
      `insert into leads (form_type, name, email) values ('order', 'Order 1', 'AB@gmail.com'), ('order', 'Order 2', 'a.b@gmail.com')`,
    );

    await db.migrateAll();

    const rows = await db.query<{ name: string; email: string; email_key: string }>(
      "select name, email, email_key from leads order by name",
    );
    const key = Object.fromEntries(rows.map((r) => [r.name, r.email_key]));
    expect(key["Trial 0"]).toBe("ab@gmail.com");
    expect(key["Trial 1"]).toMatch(/^duplicate:/);
    expect(key["Trial 2"]).toBe("x.y@outlook.com");
    expect(key["Trial 3"]).toMatch(/^duplicate:/);
    // orders share mailboxes freely: the index is on trials only
    expect(key["Order 1"]).toBe("ab@gmail.com");
    expect(key["Order 2"]).toBe("ab@gmail.com");
    // every other lead's key is what the app computes for new ones
    for (const row of rows.filter((r) => !r.email_key.startsWith("duplicate:"))) expect(row.email_key).toBe(mailboxKey(row.email));
    expect(rows).toHaveLength(trials.length + 2);

    // From now on the database refuses a second trial for a mailbox.
    await expect(
      db.query(
        `insert into leads (form_type, name, email, email_key, whatsapp_digits) values ('free-trial', 'Again', 'ab@gmail.com', 'ab@gmail.com', '27820009999')`,
      ),
    ).rejects.toThrow(/leads_one_trial_per_email/);
  });
});
