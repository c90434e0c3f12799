// A payment from a suspended client's number without the code (issue 46, decision 015): the
// checkout answers exactly as a stranger's does, and once paid the payment is held for the owner:
// no account, no time, no panel job; one owner alert; the payer's receipt; a replay changes nothing.
import { eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_APP_ID } from "@/server/adapters/payments/sandbox/adapter";
import { ikSignature } from "@/server/adapters/payments/signing";
import { capturedPayments, clients, outbox, packages, provisioningJobs, sandboxPaylinks } from "@/server/db/schema";
import { createAdmin, signIn } from "@/server/modules/admin-auth/test-helpers";
import { makeClient } from "@/server/modules/client/test-helpers";
import { createTestApp, fillBankDetails, type TestApp } from "@/server/testing";

const PUBLIC_URL = "http://localhost:8080";
const SANDBOX_SECRET = "sandbox-test-secret";
const WEBHOOK_PATH = "/api/payments/webhook/sandbox";

let t: TestApp;
let pkg3: string;
let adminCookie: string;
let ipCounter = 0;
const nextIp = () => `10.46.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  t = await createTestApp({ SANDBOX_SECRET, PUBLIC_URL }, { seed: true });
  adminCookie = await signIn(t.app, (await createAdmin(t.app)).email);
  await fillBankDetails(t.app);
  [{ id: pkg3 }] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "3 Months"));
});

afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: object) =>
  t.app.inject({ method: "POST", url, payload, headers: { origin: PUBLIC_URL }, remoteAddress: nextIp() });

const paymentRow = async (ref: string) =>
  (await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)))[0];

/** The answer with its payment's own reference (and so its URL) taken out: what is left must be equal. */
function withoutIds(response: { statusCode: number; body: string }, ref: string) {
  return { status: response.statusCode, body: response.body.split(ref).join("<ref>") };
}

async function paidBySignedCallback(ref: string, times: number) {
  await t.app.db.update(sandboxPaylinks).set({ status: "SUCCESS" }).where(eq(sandboxPaylinks.external_transaction_id, ref));
  const paylinkID = (await paymentRow(ref)).provider_reference as string;
  const rawBody = JSON.stringify({ paylinkID, status: "SUCCESS", externalTransactionID: ref, responseCode: "00" });
  const headers = {
    "content-type": "application/json",
    "ik-appid": SANDBOX_APP_ID,
    "ik-sign": ikSignature(WEBHOOK_PATH, rawBody, SANDBOX_SECRET),
  };
  for (let i = 0; i < times; i++) {
    const response = await t.app.inject({ method: "POST", url: WEBHOOK_PATH, payload: rawBody, headers });
    expect(response.statusCode, response.body).toBe(200);
  }
}

describe("a payment from a suspended client's number, without the code", () => {
  it("is answered exactly as a stranger's: the pay link and the EFT reference, same status and body", async () => {
    await makeClient(t.app, { username: "sus.one", full_name: "Sus One", whatsapp: "27825554601", status: "suspended" });
    const order = { name: "Someone", email: "", packageId: pkg3, immediateStartConsent: true };
    const suspended = await post("/api/payments/paylink", { ...order, whatsapp: "082 555 4601" });
    const stranger = await post("/api/payments/paylink", { ...order, whatsapp: "082 555 4699" });
    expect(suspended.statusCode, suspended.body).toBe(201);
    expect(withoutIds(suspended, suspended.json().externalTransactionID)).toEqual(
      withoutIds(stranger, stranger.json().externalTransactionID),
    );

    const eftSuspended = await post("/api/payments/eft", { ...order, whatsapp: "082 555 4601" });
    const eftStranger = await post("/api/payments/eft", { ...order, whatsapp: "082 555 4698" });
    expect(eftSuspended.statusCode, eftSuspended.body).toBe(eftStranger.statusCode);
    const refOf = (r: typeof eftSuspended) => String(r.json().reference ?? r.json().data?.reference);
    expect(withoutIds(eftSuspended, refOf(eftSuspended))).toEqual(withoutIds(eftStranger, refOf(eftStranger)));
  });

  it("once paid, is held: no account, the client's term unchanged, no panel job, one owner alert, the receipt; a replay changes nothing", async () => {
    const end = new Date("2026-12-01T00:00:00Z");
    const sam = await makeClient(t.app, {
      username: "sus.two",
      full_name: "Sus Two",
      whatsapp: "27825554602",
      status: "suspended",
      subscription_end: end,
    });
    const response = await post("/api/payments/paylink", {
      name: "Sam Again",
      whatsapp: "082 555 4602",
      email: "sam.again@example.co.za",
      packageId: pkg3,
      immediateStartConsent: true,
    });
    expect(response.statusCode, response.body).toBe(201);
    const ref = response.json().externalTransactionID as string;
    const clientsBefore = (await t.app.db.select({ id: clients.id }).from(clients)).length;

    const check = async () => {
      const row = await paymentRow(ref);
      expect(row).toMatchObject({ status: "paid", client_id: null, client_created: false, held_for_client_id: sam.id });
      const [client] = await t.app.db.select().from(clients).where(eq(clients.id, sam.id));
      expect(client.status).toBe("suspended");
      expect(client.subscription_end?.toISOString()).toBe(end.toISOString());
      expect((await t.app.db.select({ id: clients.id }).from(clients)).length).toBe(clientsBefore);
      expect(
        await t.app.db
          .select()
          .from(provisioningJobs)
          .where(like(provisioningJobs.cause_key, `payment:${row.id}%`)),
      ).toEqual([]);
      expect(await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.client_id, sam.id))).toEqual([]);
      const alerts = await t.app.db
        .select()
        .from(outbox)
        .where(like(outbox.dedupe_key, `owner-alert:payment-held:${row.id}%`));
      expect(alerts).toHaveLength(1);
      expect(alerts[0].body).toContain(
        "A payment came in from a number that belongs to a suspended client: Sus Two (sus.two). Nothing was set up. Refund it, or reactivate the client and add the time it paid for with Grant time on their page.",
      );
      expect(alerts[0].body).toContain(`${PUBLIC_URL}/admin/payments?q=${ref}`);
      expect(alerts[0].body).toContain(`${PUBLIC_URL}/admin/client/${sam.id}`);
      const receipts = await t.app.db
        .select()
        .from(outbox)
        .where(eq(outbox.dedupe_key, `receipt:${row.id}`));
      expect(receipts).toHaveLength(1);
      expect(receipts[0]).toMatchObject({ channel: "email", recipient: "sam.again@example.co.za", client_id: null });
      expect(receipts[0].attachment).toMatch(/^invoice:/);
      expect(receipts[0].body).not.toContain("suspended");
      // nothing was sent to the suspended client, and no account's welcome to anyone
      expect(await t.app.db.select().from(outbox).where(eq(outbox.client_id, sam.id))).toEqual([]);
      expect(
        await t.app.db
          .select()
          .from(outbox)
          .where(like(outbox.dedupe_key, `payment-received:${row.id}%`)),
      ).toEqual([]);
    };

    await paidBySignedCallback(ref, 1);
    await check();
    await paidBySignedCallback(ref, 3);
    await check();

    // The owner's payments list shows it held, for that client.
    const listed = await t.app.inject({ method: "GET", url: `/api/admin/payments?q=${ref}`, headers: { cookie: adminCookie } });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data).toEqual([expect.objectContaining({ external_transaction_id: ref, held_for_client_id: sam.id })]);

    // The payer's result page: paid, nothing set up, their receipt; nothing about the client.
    const status = await t.app.inject({ method: "GET", url: `/api/payments/${ref}` });
    expect(status.statusCode).toBe(200);
    expect(status.json().data.outcome).toMatchObject({ account: "none", subscription_end: null, suspended: false, sent_to: [] });
    expect(status.json().data.outcome.messages).toEqual([expect.objectContaining({ kind: "receipt", channel: "email" })]);
  });
});
