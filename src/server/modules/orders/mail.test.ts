// Real delivery: the outbox worker sends order and interest mail to an SMTP server on
// loopback, and an SMTP outage while orders arrive loses nothing and sends nothing twice.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/server/db/rows";
import { leads, outbox } from "@/server/db/schema";
import { createAdmin } from "@/server/modules/admin-auth/test-helpers";
import { freePort } from "@/server/test-support/free-port";
import { startSmtpSink } from "@/server/test-support/smtp-sink";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import { leadReference } from "./messages";

/** The shop's first admin: the alerts e-mail, where the business's notes go (lib/owner-alerts.ts). */
const OWNER_EMAIL = "owner@example.co.za";

/** The shared SMTP sink on 127.0.0.1 (also the browser suite's mailbox), on `port` (0: any). */
const startSmtp = (port = 0) => startSmtpSink({ port });

const postOrder = (t: TestApp, payload: Record<string, unknown>) => t.app.inject({ method: "POST", url: "/api/orders", payload });

function order(i: number): Record<string, unknown> {
  return {
    name: `Customer ${i}`,
    email: `customer${i}@example.co.za`,
    whatsapp: `082 600 ${String(i).padStart(4, "0")}`,
    package: "6 Months",
    duration: "6 Months",
    device: "smart-tv-samsung",
    internetPlatform: "lte",
    internetSpeed: "20 Mbps",
    formType: "order",
  };
}

describe("e-mail to a real SMTP server", () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 });
    await createAdmin(t.app, OWNER_EMAIL);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("delivers the order note to the business and the confirmation to the customer", async () => {
    const body = order(1);
    const res = await postOrder(t, body);
    expect(res.statusCode).toBe(201);
    const { id } = res.json();
    await t.app.outbox.drain();
    await eventually(() => expect(smtp.mails).toHaveLength(2));
    const business = smtp.mails.find((m) => m.to.includes(OWNER_EMAIL));
    const customer = smtp.mails.find((m) => m.to.includes("customer1@example.co.za"));
    expect(business?.subject).toBe("New order: Customer 1 - 6 Months, 6 Months");
    for (const part of [
      `Reference: ${leadReference({ id })} (lead ${id})`,
      "Full name: Customer 1",
      "E-mail: customer1@example.co.za",
      "WhatsApp: +27 82 600 0001 (typed as 082 600 0001)",
      "Device: Smart TV - Samsung, Hisense, LG (smart-tv-samsung)",
      "Internet platform: LTE",
      "Internet speed: 20 Mbps",
      "IP address: 127.0.0.1",
    ]) {
      expect(business?.text).toContain(part);
    }
    expect(customer?.subject).toBe("Your StreamDesk order has been received");
    expect(customer?.text).toContain("Hi Customer,");
    expect(customer?.text).toContain("- Package: 6 Months");
    expect(customer?.text).toContain("— StreamDesk");
    // The row is marked sent once the SMTP server has answered, a moment after the mail arrived
    // (and drain() may return while the pass that the order nudged still holds it).
    await eventually(async () => {
      const statuses = await t.app.db.select({ status: outbox.status }).from(outbox).where(eq(outbox.lead_id, id));
      expect(statuses.map((s) => s.status)).toEqual(["sent", "sent"]);
    });
  });

  it("delivers an interest reply chosen by e-mail", async () => {
    smtp.mails.length = 0;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/interest",
      payload: {
        firstName: "Naledi",
        lastName: "Mthembu",
        email: "naledi@example.co.za",
        whatsapp: "0826000999",
        communicationMethod: "email",
        packageName: "3 Months",
        packagePrice: 1650,
        duration: "3 Months",
      },
    });
    expect(res.statusCode).toBe(201);
    await t.app.outbox.drain();
    await eventually(() => expect(smtp.mails).toHaveLength(2));
    const customer = smtp.mails.find((m) => m.to.includes("naledi@example.co.za"));
    expect(customer?.subject).toBe("Thanks for your interest in StreamDesk");
    expect(customer?.text).toContain("3 Months (3 Months, R1,650)");
    const business = smtp.mails.find((m) => m.to.includes(OWNER_EMAIL));
    expect(business?.subject).toBe("New interest: Naledi Mthembu - 3 Months");
  });
});

describe("SMTP down while 100 orders arrive, then back", () => {
  it("saves every order, keeps their 200 messages pending, then delivers each exactly once", { timeout: 120_000 }, async () => {
    const port = await freePort();
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 });
    await createAdmin(t.app, OWNER_EMAIL);
    let smtp: Awaited<ReturnType<typeof startSmtp>> | null = null;
    try {
      const count = async (where: ReturnType<typeof sql>) =>
        Number((await queryRows<{ n: number }>(t.app.db, sql`SELECT count(*)::int AS n FROM outbox WHERE ${where}`))[0].n);

      for (let batch = 0; batch < 10; batch++) {
        const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => postOrder(t, order(100 + batch * 10 + i))));
        expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(201));
      }
      expect(await t.app.db.$count(leads)).toBe(100);

      await t.app.outbox.drain();
      // Every message was tried (by the nudges after each order, or this drain), failed, and waits for its retry.
      await eventually(
        async () => expect(await count(sql`status = 'pending' AND attempts >= 1 AND last_error IS NOT NULL`)).toBe(200),
        20_000,
        100,
      );
      expect(await count(sql`true`)).toBe(200);
      expect(await count(sql`status = 'sent'`)).toBe(0);

      smtp = await startSmtp(port);
      await t.app.db.execute(sql`UPDATE outbox SET next_attempt_at = now()`);
      await t.app.outbox.drain();
      await eventually(async () => expect(await count(sql`status = 'sent'`)).toBe(200), 20_000, 100);

      const delivered = new Map<string, number>();
      for (const mail of smtp.mails) {
        const key = `${mail.to.join(",")}|${mail.subject}`;
        delivered.set(key, (delivered.get(key) ?? 0) + 1);
      }
      expect(smtp.mails).toHaveLength(200);
      expect(delivered.size).toBe(200);
      expect([...delivered.values()].every((times) => times === 1)).toBe(true);
      for (let i = 100; i < 200; i++) {
        expect(delivered.get(`customer${i}@example.co.za|Your StreamDesk order has been received`)).toBe(1);
        expect(delivered.get(`${OWNER_EMAIL}|New order: Customer ${i} - 6 Months, 6 Months`)).toBe(1);
      }

      expect(await t.app.outbox.drain()).toBe(0);
      expect(smtp.mails).toHaveLength(200);
    } finally {
      await t.close();
      await smtp?.close();
    }
  });
});
