// Issue 25 items 6 and 7 on WhatsApp: a WhatsApp-only customer's receipt and welcome keep their
// kind's own subject on the row (the owner's queue lists it; an e-mail copy would read it), and
// read true to the customer at that moment: greeted by first name, the invoice's number as the
// reference a person can quote, no "e-mail", and the line "being made now" when the panel makes
// it by itself (the sandbox panel here) rather than a promise of a person's support hours.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPayments, invoices, outbox, packages } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";

const PUBLIC_URL = "http://localhost:8080";
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

let t: TestApp;
let admin: SignedIn;
let packageId = "";

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SECRET: "sandbox-test-secret", PUBLIC_URL }, { seed: true });
  admin = await signInAdmin(t.app);
  const [pkg] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "3 Months"));
  packageId = pkg.id;
});

afterAll(async () => {
  await t?.close();
});

describe("a WhatsApp-only customer's receipt, welcome and line details", () => {
  it("each row keeps its own subject, the owner's queue lists them so, and the receipt quotes the invoice", async () => {
    const headers = { origin: PUBLIC_URL };
    const link = await t.app.inject({
      method: "POST",
      url: "/api/payments/paylink",
      payload: { packageId, immediateStartConsent: true, name: "Lindiwe Ndlovu", whatsapp: "083 555 0201" },
      headers,
      remoteAddress: "10.9.5.1",
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

    const [payment] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref));
    const [invoice] = await t.app.db.select().from(invoices).where(eq(invoices.payment_id, payment.id));
    const [receipt] = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `receipt:${payment.id}`));
    const [welcome] = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `welcome:${payment.client_id}:whatsapp`));

    expect(receipt).toMatchObject({ channel: "whatsapp", recipient: "27835550201", subject: "StreamDesk: payment received for 3 Months" });
    expect(welcome).toMatchObject({ channel: "whatsapp", recipient: "27835550201", subject: "Welcome to StreamDesk: your client portal" });

    // The receipt, as Lindiwe reads it on WhatsApp.
    expect(receipt.body.startsWith("Hi Lindiwe,\n")).toBe(true);
    expect(receipt.body).toContain(`Reference: ${ref}`);
    expect(receipt.body).toContain(`Invoice: ${invoice.number}`);
    expect(receipt.body).toContain("your client portal login is in a separate message.");
    // The sandbox panel makes the line by itself: no wait for support hours is promised.
    expect(receipt.body).toContain("Your line is being made now: its streaming login details follow in a separate message");
    expect(receipt.body).not.toContain("We're setting up your line");
    expect(receipt.body).not.toMatch(/e-?mail/i);
    expect(receipt.body).not.toMatch(UUID);
    expect(welcome.body.startsWith("Hi Lindiwe,\n")).toBe(true);
    expect(welcome.body).not.toMatch(/e-?mail/i);

    // The sandbox panel makes the line: its login details follow on WhatsApp, under their own subject too.
    await t.app.provisioning.drain();
    const credentials = (
      await t.app.db
        .select()
        .from(outbox)
        .where(eq(outbox.client_id, payment.client_id as string))
    ).filter((m) => m.kind === "credentials");
    expect(credentials).toEqual([expect.objectContaining({ channel: "whatsapp", subject: "StreamDesk: your line is ready" })]);

    // Without the Cloud API all three wait in the owner's queue, each under its own subject.
    await t.app.outbox.drain();
    const res = await admin.call({ method: "GET", url: "/api/admin/outbox?status=owner&channel=whatsapp" });
    expect(res.statusCode, res.body).toBe(200);
    const rows = JSON.stringify(res.json().data);
    expect(rows).toContain("StreamDesk: payment received for 3 Months");
    expect(rows).toContain("Welcome to StreamDesk: your client portal");
    expect(rows).toContain("StreamDesk: your line is ready");
  });
});
