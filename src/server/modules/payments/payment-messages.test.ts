// Issue 25 item 1: GET /api/payments/:ref says where each of the customer's messages about the
// payment really stands (queued, waiting for the owner on WhatsApp, sent, delivered, read,
// failed), never the business's own notice, never a message of another payment.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPayments, outbox, packages } from "@/server/db/schema";
import { createAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createTestApp, type TestApp } from "@/server/testing";
import type { PaymentMessage } from "@/shared/api";
import { messageState } from "./service";

const PUBLIC_URL = "http://localhost:8080";

let t: TestApp;
let packageId = "";
let ip = 0;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SECRET: "sandbox-test-secret", PUBLIC_URL }, { seed: true });
  // the shop's first admin: the business's notice of each payment goes to their address
  await createAdmin(t.app);
  const [pkg] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "3 Months"));
  packageId = pkg.id;
});

afterAll(async () => {
  await t?.close();
});

const headers = { origin: PUBLIC_URL };

/** A visitor pays for 3 Months in the sandbox checkout; answers the payment's reference. */
async function visitorPays(payer: { name: string; whatsapp: string; email?: string }): Promise<string> {
  const link = await t.app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: { packageId, immediateStartConsent: true, ...payer },
    headers,
    remoteAddress: `10.9.0.${++ip}`,
  });
  expect(link.statusCode, link.body).toBe(201);
  const ref = link.json().externalTransactionID as string;
  const pay = await t.app.inject({
    method: "POST",
    url: `/api/payments/sandbox/checkout/${ref}/pay`,
    headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
    payload: "",
  });
  expect(pay.statusCode).toBe(303);
  return ref;
}

async function messagesOf(ref: string): Promise<PaymentMessage[]> {
  const res = await t.app.inject({ method: "GET", url: `/api/payments/${ref}` });
  expect(res.statusCode).toBe(200);
  return res.json().data.outcome.messages;
}

describe("GET /api/payments/:ref — the customer's messages and where they stand", () => {
  it("WhatsApp only: waiting for the owner, then the line login joins; sent, and read once Meta says so", async () => {
    const ref = await visitorPays({ name: "Thandi Mokoena", whatsapp: "083 555 0101" });
    // Without the Cloud API the worker hands WhatsApp to the owner: not sent, waiting for them.
    await t.app.outbox.drain();
    expect(await messagesOf(ref)).toEqual([
      { kind: "receipt", channel: "whatsapp", state: "owner" },
      { kind: "welcome", channel: "whatsapp", state: "owner" },
    ]);

    // The sandbox panel makes the line: its login joins, waiting for the owner too.
    await t.app.provisioning.drain();
    await t.app.outbox.drain();
    expect(await messagesOf(ref)).toContainEqual({ kind: "credentials", channel: "whatsapp", state: "owner" });

    // The owner sends the receipt; Meta reports the welcome read.
    const [payment] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref));
    await t.app.db
      .update(outbox)
      .set({ status: "sent", sent_at: new Date() })
      .where(eq(outbox.dedupe_key, `receipt:${payment.id}`));
    await t.app.db
      .update(outbox)
      .set({ status: "sent", delivery_status: "read" })
      .where(eq(outbox.dedupe_key, `welcome:${payment.client_id}:whatsapp`));
    const messages = await messagesOf(ref);
    expect(messages).toContainEqual({ kind: "receipt", channel: "whatsapp", state: "sent" });
    expect(messages).toContainEqual({ kind: "welcome", channel: "whatsapp", state: "read" });
    // never the business's notice (it goes to the owner's alerts e-mail)
    const kinds = messages.map((m) => m.kind);
    expect(kinds).not.toContain("payment-received");
    expect(new Set(kinds)).toEqual(new Set(["receipt", "welcome", "credentials"]));
  });

  it("with an e-mail address: the receipt and welcome by e-mail stay queued without SMTP; a failure is a failure", async () => {
    const ref = await visitorPays({ name: "Sipho Dlamini", whatsapp: "083 555 0102", email: "sipho@example.co.za" });
    await t.app.outbox.drain();
    const messages = await messagesOf(ref);
    expect(messages).toContainEqual({ kind: "receipt", channel: "email", state: "queued" });
    expect(messages).toContainEqual({ kind: "welcome", channel: "email", state: "queued" });
    expect(messages).toContainEqual({ kind: "welcome", channel: "whatsapp", state: "owner" });
    const [payment] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref));
    await t.app.db
      .update(outbox)
      .set({ status: "failed" })
      .where(eq(outbox.dedupe_key, `receipt:${payment.id}`));
    expect(await messagesOf(ref)).toContainEqual({ kind: "receipt", channel: "email", state: "failed" });
  });

  it("an unpaid payment has no messages", async () => {
    const link = await t.app.inject({
      method: "POST",
      url: "/api/payments/paylink",
      payload: { packageId, immediateStartConsent: true, name: "Not Yet", whatsapp: "083 555 0103" },
      headers,
      remoteAddress: "10.9.1.1",
    });
    expect(await messagesOf(link.json().externalTransactionID)).toEqual([]);
  });
});

describe("messageState", () => {
  it.each([
    [{ channel: "email", status: "pending", delivery_status: null }, "queued"],
    [{ channel: "email", status: "sending", delivery_status: null }, "queued"],
    [{ channel: "whatsapp", status: "owner", delivery_status: null }, "owner"],
    [{ channel: "email", status: "sent", delivery_status: null }, "sent"],
    [{ channel: "whatsapp", status: "sent", delivery_status: null }, "sent"],
    [{ channel: "whatsapp", status: "sent", delivery_status: "sent" }, "sent"],
    [{ channel: "whatsapp", status: "sent", delivery_status: "delivered" }, "delivered"],
    [{ channel: "whatsapp", status: "sent", delivery_status: "read" }, "read"],
    [{ channel: "whatsapp", status: "failed", delivery_status: "failed" }, "failed"],
    [{ channel: "email", status: "failed", delivery_status: null }, "failed"],
    [{ channel: "whatsapp", status: "rerouted", delivery_status: null }, null],
  ])("%o is %s", (row, state) => {
    expect(messageState(row)).toBe(state);
  });
});
