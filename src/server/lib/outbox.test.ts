// Queuing messages: all of a cause's messages in one statement, each dedupe key once.
import { asc } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { outbox } from "@/server/db/schema";
import { openTestDatabase, type TestDatabase } from "@/server/testing";
import { enqueue, enqueueAll, type OutboxMessage, SECRET_PLACEHOLDER } from "./outbox";

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

const email = (recipient: string, extra: Partial<OutboxMessage> = {}): OutboxMessage => ({
  channel: "email",
  recipient,
  subject: `To ${recipient}`,
  body: `Hello ${recipient}`,
  kind: "test",
  ...extra,
});

const queued = () =>
  database.db
    .select({ recipient: outbox.recipient, dedupe_key: outbox.dedupe_key, status: outbox.status, wa_link: outbox.wa_link })
    .from(outbox)
    .orderBy(asc(outbox.recipient));

describe("enqueueAll", () => {
  it("queues every message in one statement, each read back with its own fields", async () => {
    const statements: string[] = [];
    const counting = new Proxy(database.db, {
      get(target, name, receiver) {
        if (name === "insert") statements.push("insert");
        return Reflect.get(target, name, receiver);
      },
    });
    await enqueueAll(counting, [
      email("a@example.co.za"),
      { channel: "whatsapp", recipient: "27821234567", body: "Hi on WhatsApp", kind: "test" },
      email("c@example.co.za", { failure: "The template did not render" }),
    ]);
    expect(statements).toEqual(["insert"]);
    const rows = await queued();
    expect(rows.map((r) => [r.recipient, r.status])).toEqual([
      ["27821234567", "pending"],
      ["a@example.co.za", "pending"],
      ["c@example.co.za", "failed"],
    ]);
    expect(rows[0].wa_link).toContain("wa.me/27821234567");
    expect(rows[1].wa_link).toBeNull();
  });

  it("queues a dedupe key once, whether it was queued before or repeats in the list", async () => {
    await enqueue(database.db, email("a@example.co.za", { dedupe_key: "reminder:1" }));
    await enqueueAll(database.db, [
      email("a@example.co.za", { dedupe_key: "reminder:1" }),
      email("b@example.co.za", { dedupe_key: "reminder:2" }),
      email("b@example.co.za", { dedupe_key: "reminder:2" }),
      email("c@example.co.za"),
    ]);
    expect((await queued()).map((r) => r.dedupe_key)).toEqual(["reminder:1", "reminder:2", null]);
  });

  it("queues nothing of the list when one message is refused", async () => {
    await expect(
      enqueueAll(database.db, [email("a@example.co.za"), email("b@example.co.za", { secret: "pass-123", body: "no place for it" })]),
    ).rejects.toThrow(SECRET_PLACEHOLDER);
    expect(await queued()).toEqual([]);
  });

  it("queues nothing for an empty list", async () => {
    await enqueueAll(database.db, []);
    expect(await queued()).toEqual([]);
  });
});
