import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { EmailTransport, OutgoingEmail } from "@/server/adapters/email";
import type { WhatsAppTransport } from "@/server/adapters/whatsapp";
import { openDatabase } from "@/server/db/client";
import { outbox, whatsappWindows } from "@/server/db/schema";
import { enqueue, maskedBody, SECRET_PLACEHOLDER, SECRET_URL_PLACEHOLDER } from "@/server/lib/outbox";
import { VERIFICATION_KIND } from "@/server/lib/verification";
import { startTogether } from "@/server/test-support/race";
import { onPostgres, openTestDatabase, type TestDatabase } from "@/server/testing";
import { backoffMs, MAX_ATTEMPTS, OutboxWorker } from "./outbox-worker";

class FakeEmail implements EmailTransport {
  readonly name = "fake";
  sent: OutgoingEmail[] = [];
  failWith: string | null = null;
  /** how long a send takes */
  delayMs = 0;
  async send(message: OutgoingEmail) {
    if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.failWith) throw new Error(this.failWith);
    this.sent.push(message);
  }
  async verify() {}
  close() {}
}

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await database.db.delete(outbox);
});

const makeDue = () => database.db.execute(sql`UPDATE outbox SET next_attempt_at = now()`);

/** What the worker logged: [level, message, details]. */
function captureLog() {
  const lines: { level: "warn" | "error"; message: string; details: Record<string, unknown> }[] = [];
  return {
    lines,
    warn: (details: object, message: string) => void lines.push({ level: "warn", message, details: details as Record<string, unknown> }),
    error: (details: object, message: string) => void lines.push({ level: "error", message, details: details as Record<string, unknown> }),
  };
}

/**
 * The database refuses the next `times` writes that set an outbox row to `status` (a trigger, as a
 * lost connection or a full disk would refuse them); `heal` takes it away.
 */
async function refuseStatusWrites(status: string, times = 1_000_000) {
  const run = async (...statements: string[]) => {
    for (const statement of statements) await database.db.execute(sql.raw(statement));
  };
  await run(
    "DROP SEQUENCE IF EXISTS test_outbox_refusals",
    "CREATE SEQUENCE test_outbox_refusals",
    `CREATE OR REPLACE FUNCTION test_refuse_outbox() RETURNS trigger AS $$
    BEGIN
      IF NEW.status = '${status}' AND nextval('test_outbox_refusals') <= ${times} THEN
        RAISE EXCEPTION 'injected: the % status was not written', NEW.status;
      END IF;
      RETURN NEW;
    END $$ LANGUAGE plpgsql`,
    "DROP TRIGGER IF EXISTS test_refuse_outbox ON outbox",
    "CREATE TRIGGER test_refuse_outbox BEFORE UPDATE ON outbox FOR EACH ROW EXECUTE FUNCTION test_refuse_outbox()",
  );
  return {
    heal: () =>
      run(
        "DROP TRIGGER IF EXISTS test_refuse_outbox ON outbox",
        "DROP FUNCTION IF EXISTS test_refuse_outbox()",
        "DROP SEQUENCE IF EXISTS test_outbox_refusals",
      ),
  };
}

/** Every row in the owner's queue, each with its own wa.me link. */
async function expectOwnerQueue(count: number) {
  const rows = await database.db.select().from(outbox);
  expect(rows).toHaveLength(count);
  for (const row of rows) {
    expect(row.status).toBe("owner");
    expect(row.wa_link).toBe(`https://wa.me/${row.recipient}?text=${encodeURIComponent(row.body)}`);
  }
}

/** The row as another process would find it after STALE_SENDING_MS: a claim it may take over. */
const ageClaims = () => database.db.execute(sql`UPDATE outbox SET updated_at = now() - interval '10 minutes' WHERE status = 'sending'`);

describe("outbox worker", () => {
  it("sends a queued e-mail once and marks it sent", async () => {
    const email = new FakeEmail();
    const worker = new OutboxWorker(database.db, { email });
    await enqueue(database.db, { channel: "email", recipient: "a@example.co.za", subject: "Hi", body: "Body", kind: "test" });
    expect(await worker.drain()).toBe(1);
    expect(await worker.drain()).toBe(0);
    expect(email.sent).toEqual([{ to: "a@example.co.za", subject: "Hi", text: "Body" }]);
    const [row] = await database.db.select().from(outbox);
    expect(row.status).toBe("sent");
    expect(row.sent_at).not.toBeNull();
    expect(row.attempts).toBe(1);
  });

  it("leaves e-mail waiting when there is no SMTP transport", async () => {
    const worker = new OutboxWorker(database.db, {});
    await enqueue(database.db, { channel: "email", recipient: "a@example.co.za", subject: "Hi", body: "Body", kind: "test" });
    expect(await worker.drain()).toBe(0);
    const [row] = await database.db.select().from(outbox);
    expect(row).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("without the Cloud API, puts WhatsApp in the owner's queue with its wa.me link", async () => {
    const worker = new OutboxWorker(database.db, { email: new FakeEmail() });
    await enqueue(database.db, { channel: "whatsapp", recipient: "27821234567", body: "Hi & welcome?", kind: "test" });
    expect(await worker.drain()).toBe(1);
    const [row] = await database.db.select().from(outbox);
    expect(row).toMatchObject({ status: "owner", attempts: 0, wa_link: "https://wa.me/27821234567?text=Hi%20%26%20welcome%3F" });
    expect(row.note).toContain("send it from the dashboard");
    // nothing more to do on the next pass
    expect(await worker.drain()).toBe(0);
  });

  it("without the Cloud API, a one-time code still pending on WhatsApp fails at once: never the owner's queue, never an e-mail copy", async () => {
    const email = new FakeEmail();
    const worker = new OutboxWorker(database.db, { email });
    await enqueue(database.db, {
      channel: "whatsapp",
      recipient: "27821234567",
      body: `Your code is ${SECRET_PLACEHOLDER}.`,
      kind: VERIFICATION_KIND,
      secret: "123456",
    });
    expect(await worker.drain()).toBe(1);
    const rows = await database.db.select().from(outbox);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "failed", wa_link: null });
    expect(rows[0].last_error).toContain("a one-time code cannot go on WhatsApp");
    expect(email.sent).toEqual([]);
  });

  it("retries with backoff and ends 'failed' with the last error after MAX_ATTEMPTS", async () => {
    const email = new FakeEmail();
    email.failWith = "connection refused";
    const worker = new OutboxWorker(database.db, { email });
    await enqueue(database.db, { channel: "email", recipient: "b@example.co.za", body: "x", kind: "test" });
    await worker.drain();
    let [row] = await database.db.select().from(outbox);
    expect(row.status).toBe("pending");
    expect(row.last_error).toBe("connection refused");
    // not due again until the backoff passes
    expect(await worker.drain()).toBe(0);
    expect(row.next_attempt_at.getTime() - Date.now()).toBeGreaterThan(20_000);
    for (let i = 1; i < MAX_ATTEMPTS; i++) {
      await makeDue();
      await worker.drain();
    }
    [row] = await database.db.select().from(outbox);
    expect(row.status).toBe("failed");
    expect(row.attempts).toBe(MAX_ATTEMPTS);
    await makeDue();
    expect(await worker.drain()).toBe(0);
  });

  it("recovers when the transport comes back: each message delivered exactly once", async () => {
    const email = new FakeEmail();
    email.failWith = "down";
    const worker = new OutboxWorker(database.db, { email });
    for (let i = 0; i < 60; i++) {
      await enqueue(database.db, { channel: "email", recipient: `c${i}@example.co.za`, body: `m${i}`, kind: "test" });
    }
    await worker.drain();
    email.failWith = null;
    await makeDue();
    await Promise.all([worker.drain(), worker.drain()]);
    expect(email.sent).toHaveLength(60);
    expect(new Set(email.sent.map((m) => m.to)).size).toBe(60);
    const sent = await database.db.select().from(outbox).where(eq(outbox.status, "sent"));
    expect(sent).toHaveLength(60);
  });

  it("a message sent whose 'sent' cannot be written is never sent again: it stays claimed, logged, and is marked sent once the write goes through", async () => {
    const email = new FakeEmail();
    const log = captureLog();
    const worker = new OutboxWorker(database.db, { email }, undefined, { log });
    await enqueue(database.db, { channel: "email", recipient: "once@example.co.za", body: "x", kind: "test" });
    const [queued] = await database.db.select().from(outbox);
    const refusal = await refuseStatusWrites("sent");
    try {
      await worker.drain();
      expect(email.sent).toHaveLength(1);
      let [row] = await database.db.select().from(outbox);
      // not 'pending' (that would send it again): the claim stays
      expect(row).toMatchObject({ status: "sending", attempts: 1, last_error: null });
      expect(worker.unwritten).toEqual([queued.id]);
      // tried three times before moving on, each refusal logged
      expect(log.lines.filter((l) => l.level === "error" && l.details.outbox === queued.id && l.details.result === "sent")).toHaveLength(3);
      expect(log.lines.at(-1)?.message).toContain("stays claimed");
      // even once the claim is old enough to be taken over, this worker does not send it again
      await ageClaims();
      await worker.drain();
      expect(email.sent).toHaveLength(1);
      [row] = await database.db.select().from(outbox);
      expect(row.status).toBe("sending");
      expect(log.lines.at(-1)?.message).toContain("still not written");
    } finally {
      await refusal.heal();
    }
    await worker.drain();
    expect(email.sent).toHaveLength(1);
    const [row] = await database.db.select().from(outbox);
    expect(row).toMatchObject({ status: "sent", attempts: 1, sent_via: "fake" });
    expect(worker.unwritten).toEqual([]);
  });

  it("a status write refused once is tried again before the worker moves on", async () => {
    const email = new FakeEmail();
    const log = captureLog();
    const worker = new OutboxWorker(database.db, { email }, undefined, { log });
    await enqueue(database.db, { channel: "email", recipient: "twice@example.co.za", body: "x", kind: "test" });
    const refusal = await refuseStatusWrites("sent", 1);
    try {
      await worker.drain();
    } finally {
      await refusal.heal();
    }
    const [row] = await database.db.select().from(outbox);
    expect(row).toMatchObject({ status: "sent", attempts: 1 });
    expect(email.sent).toHaveLength(1);
    expect(worker.unwritten).toEqual([]);
    expect(log.lines.map((l) => l.message)).toEqual(["outbox result not written: trying again"]);
  });

  it("a failed send whose failure cannot be written stays claimed (not tried again meanwhile) and is recorded once it can be", async () => {
    const email = new FakeEmail();
    email.failWith = "smtp down";
    const log = captureLog();
    const worker = new OutboxWorker(database.db, { email }, undefined, { log });
    await enqueue(database.db, { channel: "email", recipient: "later@example.co.za", body: "x", kind: "test" });
    const refusal = await refuseStatusWrites("pending");
    try {
      await worker.drain();
      expect(log.lines[0]).toMatchObject({ level: "warn", message: "outbox message not sent: it is tried again" });
      expect(log.lines[0].details).toMatchObject({ attempts: 1, final: false });
      await ageClaims();
      await worker.drain();
      const [row] = await database.db.select().from(outbox);
      expect(row).toMatchObject({ status: "sending", attempts: 1 });
    } finally {
      await refusal.heal();
    }
    await worker.drain();
    const [row] = await database.db.select().from(outbox);
    expect(row).toMatchObject({ status: "pending", attempts: 1, last_error: "smtp down" });
    expect(row.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 20_000);
  });

  // Two server processes are two workers on connections of their own; PGlite is one connection, on
  // which two workers can only take turns, so the race itself is run on PostgreSQL (below).
  it.skipIf(onPostgres())("on PGlite's one connection, two workers draining together take turns: each message sent once", async () => {
    const email = new FakeEmail();
    const a = new OutboxWorker(database.db, { email });
    const b = new OutboxWorker(database.db, { email });
    for (let i = 0; i < 80; i++) await enqueue(database.db, { channel: "email", recipient: `d${i}@example.co.za`, body: "x", kind: "t" });
    await Promise.all([a.drain(), b.drain()]);
    expect(email.sent).toHaveLength(80);
    expect(new Set(email.sent.map((m) => m.to)).size).toBe(80);
  });

  it.runIf(onPostgres())(
    "PostgreSQL (PGlite has one connection: nothing races there): two workers on connections of their own (two server processes), let go at the same moment, send each message once, and both send",
    async () => {
      const second = await openDatabase({ databaseUrl: database.url, poolSize: 5 });
      try {
        const [emailA, emailB] = [new FakeEmail(), new FakeEmail()];
        // a send takes a moment, as SMTP does: the other worker claims while this one is sending
        emailA.delayMs = emailB.delayMs = 5;
        const a = new OutboxWorker(database.db, { email: emailA });
        const b = new OutboxWorker(second.db, { email: emailB });
        for (let i = 0; i < 80; i++)
          await enqueue(database.db, { channel: "email", recipient: `d${i}@example.co.za`, body: "x", kind: "t" });
        // Both workers' first statement on the outbox waits behind the lock; then both go.
        await startTogether(database.url as string, "LOCK TABLE outbox IN EXCLUSIVE MODE", 2, () => Promise.all([a.drain(), b.drain()]));
        const sent = [...emailA.sent, ...emailB.sent].map((m) => m.to);
        expect(sent).toHaveLength(80);
        expect(new Set(sent).size).toBe(80);
        expect(emailA.sent.length).toBeGreaterThan(0);
        expect(emailB.sent.length).toBeGreaterThan(0);
        expect(await database.db.select().from(outbox).where(eq(outbox.status, "sent"))).toHaveLength(80);
      } finally {
        await second.close();
      }
    },
  );

  it.skipIf(onPostgres())(
    "without the Cloud API, on PGlite's one connection, two workers draining together move a batch of WhatsApp messages to the owner's queue once each, each with its own link",
    async () => {
      const a = new OutboxWorker(database.db, {});
      const b = new OutboxWorker(database.db, {});
      for (let i = 0; i < 80; i++) {
        await enqueue(database.db, {
          channel: "whatsapp",
          recipient: `278200000${String(i).padStart(2, "0")}`,
          body: `Hi ${i}`,
          kind: "t",
        });
      }
      const [movedByA, movedByB] = await Promise.all([a.drain(), b.drain()]);
      expect(movedByA + movedByB).toBe(80);
      await expectOwnerQueue(80);
      expect(await a.drain()).toBe(0);
    },
  );

  it.runIf(onPostgres())(
    "PostgreSQL (PGlite has one connection: nothing races there): without the Cloud API, two workers on connections of their own, let go at the same moment, move each WhatsApp message to the owner's queue once, and both move some",
    async () => {
      const second = await openDatabase({ databaseUrl: database.url, poolSize: 5 });
      try {
        const a = new OutboxWorker(database.db, {});
        const b = new OutboxWorker(second.db, {});
        for (let i = 0; i < 80; i++) {
          await enqueue(database.db, {
            channel: "whatsapp",
            recipient: `278200000${String(i).padStart(2, "0")}`,
            body: `Hi ${i}`,
            kind: "t",
          });
        }
        const [movedByA, movedByB] = await startTogether(database.url as string, "LOCK TABLE outbox IN EXCLUSIVE MODE", 2, () =>
          Promise.all([a.drain(), b.drain()]),
        );
        expect(movedByA + movedByB).toBe(80);
        expect(movedByA).toBeGreaterThan(0);
        expect(movedByB).toBeGreaterThan(0);
        await expectOwnerQueue(80);
        expect(await a.drain()).toBe(0);
      } finally {
        await second.close();
      }
    },
  );

  it("sends WhatsApp messages to the digits of the number", async () => {
    const sent: [string, string][] = [];
    const whatsapp: WhatsAppTransport = {
      name: "fake",
      send: async (to, text) => {
        sent.push([to, text]);
        return { id: `wamid.${sent.length}` };
      },
      sendTemplate: async () => {
        throw new Error("no template expected");
      },
    };
    // the number wrote to us a minute ago: its window is open, so free text goes
    await database.db.insert(whatsappWindows).values({ number: "27821234567", last_inbound_at: new Date(Date.now() - 60_000) });
    const worker = new OutboxWorker(database.db, { whatsapp });
    await enqueue(database.db, { channel: "whatsapp", recipient: "27821234567", body: "Your guide", kind: "instructions" });
    await worker.drain();
    expect(sent).toEqual([["27821234567", "Your guide"]]);
    const [row] = await database.db.select().from(outbox);
    expect(row).toMatchObject({ status: "sent", sent_via: "cloud-text", wamid: "wamid.1" });
    await database.db.delete(whatsappWindows);
  });

  it("fills a secret in only as it sends: the stored row keeps it encrypted", async () => {
    const email = new FakeEmail();
    const worker = new OutboxWorker(database.db, { email });
    const link = "https://shop.example/client-password-reset?token=abc123";
    await enqueue(database.db, {
      channel: "email",
      recipient: "s@example.co.za",
      subject: "Reset",
      body: `Choose a new password here: ${SECRET_PLACEHOLDER}`,
      secret: link,
      kind: "password-reset",
    });
    const [stored] = await database.db.select().from(outbox);
    expect(stored.body).toBe("Choose a new password here: {{secret}}");
    expect(stored.secret_enc).not.toContain("abc123");
    await worker.drain();
    expect(email.sent).toEqual([{ to: "s@example.co.za", subject: "Reset", text: `Choose a new password here: ${link}` }]);
  });

  it("fills a password in a line's text and, URL-encoded, in its links", async () => {
    const email = new FakeEmail();
    const worker = new OutboxWorker(database.db, { email });
    await enqueue(database.db, {
      channel: "email",
      recipient: "line@example.co.za",
      subject: "Your line",
      body: `Password: ${SECRET_PLACEHOLDER}\nM3U: http://tv.example/get.php?username=u1&password=${SECRET_URL_PLACEHOLDER}`,
      secret: "p@ss w0rd",
      kind: "credentials",
    });
    const [stored] = await database.db.select().from(outbox);
    expect(maskedBody(stored)).toBe("Password: ••••••\nM3U: http://tv.example/get.php?username=u1&password=••••••");
    await worker.drain();
    expect(email.sent[0].text).toBe("Password: p@ss w0rd\nM3U: http://tv.example/get.php?username=u1&password=p%40ss%20w0rd");
  });

  it("refuses a secret with no place in the body", async () => {
    await expect(
      enqueue(database.db, { channel: "email", recipient: "s@example.co.za", body: "No place", secret: "x", kind: "t" }),
    ).rejects.toThrow(/needs \{\{secret\}\}/);
  });

  it("queues a message with a dedupe key only once", async () => {
    for (let i = 0; i < 3; i++) {
      await enqueue(database.db, {
        channel: "email",
        recipient: "e@example.co.za",
        body: "receipt",
        kind: "receipt",
        dedupe_key: "receipt:1",
      });
    }
    expect(await database.db.select().from(outbox)).toHaveLength(1);
  });

  it("backs off 30 s, doubling, capped at an hour", () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(backoffMs(20)).toBe(3_600_000);
  });
});
