// No placeholder reaches a customer, and EFT beside card (issue 28, items 2-3): any bank field
// still at the seed's "Set in Admin › Settings" (the account type too) keeps EFT off everywhere:
// methods, the storefront's EFT request, the portal's renewal, the messages that point people to
// the portal. Once real, a card payment that failed or was cancelled can be paid by EFT from its
// result page (POST /api/payments/:ref/eft): the same package, price and payer, once.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPayments, outbox, packages, siteSettings } from "@/server/db/schema";
import { clientSession, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, fillBankDetails, TEST_BANK_DETAILS, type TestApp } from "@/server/testing";
import { EFT_INSTEAD_NOT_FAILED_MESSAGE, EFT_UNAVAILABLE_MESSAGE, SETTING_PLACEHOLDER } from "@/shared/constants";

const PUBLIC_URL = "http://localhost:8080";
let t: TestApp;
const pkgId: Record<string, string> = {};
let ipCounter = 0;
const nextIp = () => `10.28.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
let payerCounter = 0;
const payer = (email = "") => ({
  name: "Card Payer",
  whatsapp: `0842${String(++payerCounter).padStart(6, "0")}`,
  immediateStartConsent: true,
  ...(email ? { email } : {}),
});

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL, PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 }, { seed: true });
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
});
afterAll(async () => {
  await t?.close();
});

const methods = async () => (await t.app.inject({ method: "GET", url: "/api/payments/methods" })).json().data;
const eftRows = () => t.app.db.select().from(capturedPayments).where(eq(capturedPayments.provider, "eft"));

/** A card payment through the sandbox checkout, declined or cancelled there. */
async function cardPayment(action: "decline" | "cancel" | "pay", email = "") {
  const created = await t.app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: { ...payer(email), packageId: pkgId["3 Months"] },
    remoteAddress: nextIp(),
  });
  expect(created.statusCode, created.body).toBe(201);
  const ref = created.json().externalTransactionID as string;
  const pressed = await t.app.inject({
    method: "POST",
    url: `/api/payments/sandbox/checkout/${ref}/${action}`,
    headers: { origin: PUBLIC_URL, "content-type": "application/x-www-form-urlencoded" },
    payload: "",
  });
  expect(pressed.statusCode).toBe(303);
  const [row] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref));
  return row;
}

const eftInstead = (ref: string) => t.app.inject({ method: "POST", url: `/api/payments/${ref}/eft`, remoteAddress: nextIp() });

describe("a bank field at the seed's placeholder keeps EFT off everywhere", () => {
  it("the account type alone still 'Set in Admin › Settings': methods say card only, EFT requests are 409, nothing recorded or shown", async () => {
    await fillBankDetails(t.app, { ...TEST_BANK_DETAILS, eft_account_type: SETTING_PLACEHOLDER });
    expect(await methods()).toMatchObject({ card: "sandbox", eft: false });
    const before = (await eftRows()).length;
    const asked = await t.app.inject({
      method: "POST",
      url: "/api/payments/eft",
      payload: { ...payer("placeholder@example.test"), packageId: pkgId["3 Months"] },
      remoteAddress: nextIp(),
    });
    expect(asked.statusCode).toBe(409);
    expect(asked.json().error.message).toBe(EFT_UNAVAILABLE_MESSAGE);
    expect(asked.body).not.toContain(SETTING_PLACEHOLDER);
    expect((await eftRows()).length).toBe(before);
    const mails = await t.app.db.select().from(outbox).where(eq(outbox.recipient, "placeholder@example.test"));
    expect(mails).toEqual([]);
  });

  it("the portal's renewal by EFT is refused the same way; by card it goes on", async () => {
    const admin = await signInAdmin(t.app);
    const created = await admin.call({
      method: "POST",
      url: "/api/admin/clients",
      payload: { full_name: "Portal Payer", whatsapp: "082 777 2801" },
    });
    const clientId = created.json().client.id as string;
    const session = await clientSession(t.app, clientId);
    const byEft = await t.app.inject({
      method: "POST",
      url: "/api/client/renew",
      cookies: session.cookie,
      headers: { origin: PUBLIC_URL },
      payload: { packageId: pkgId["3 Months"], method: "eft" },
    });
    expect(byEft.statusCode, byEft.body).toBe(409);
    expect(byEft.body).not.toContain(SETTING_PLACEHOLDER);
    const byCard = await t.app.inject({
      method: "POST",
      url: "/api/client/renew",
      cookies: session.cookie,
      headers: { origin: PUBLIC_URL },
      payload: { packageId: pkgId["3 Months"], method: "card" },
    });
    expect(byCard.statusCode, byCard.body).toBe(201);

    // the welcome that sends a pending client to the portal offers what the portal offers: card only
    const [welcome] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "welcome")));
    expect(welcome.body).toContain("renew in the portal by card.");
    expect(welcome.body).not.toContain("EFT");
  });

  it("a failed card payment cannot be paid by EFT instead while EFT is off (409, nothing made)", async () => {
    const card = await cardPayment("decline");
    expect(card.status).toBe("failed");
    const before = (await eftRows()).length;
    const res = await eftInstead(card.external_transaction_id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(EFT_UNAVAILABLE_MESSAGE);
    expect((await eftRows()).length).toBe(before);
  });

  it("an account type left empty is fine (not shown); real details make EFT available, and its e-mail carries no placeholder", async () => {
    await fillBankDetails(t.app, { ...TEST_BANK_DETAILS, eft_account_type: "" });
    expect(await methods()).toMatchObject({ eft: true });
    const asked = await t.app.inject({
      method: "POST",
      url: "/api/payments/eft",
      payload: { ...payer("real@example.test"), packageId: pkgId["6 Months"] },
      remoteAddress: nextIp(),
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const [mail] = await t.app.db.select().from(outbox).where(eq(outbox.recipient, "real@example.test"));
    expect(mail.body).toContain(`Account number: ${TEST_BANK_DETAILS.eft_account_number}`);
    expect(mail.body).not.toContain("Account type");
    expect(mail.body).not.toContain(SETTING_PLACEHOLDER);
  });
});

describe("POST /api/payments/:ref/eft: pay by EFT instead of a card that failed", () => {
  it("a declined card: the EFT reference is for the same package, price and payer; asked twice, one reference and one e-mail", async () => {
    await fillBankDetails(t.app);
    const card = await cardPayment("decline", "switcher@example.test");
    const first = await eftInstead(card.external_transaction_id);
    expect(first.statusCode, first.body).toBe(201);
    const body = first.json();
    expect(body).toMatchObject({ success: true, amount: card.amount, package_name: card.package_name });
    expect(body.bank.account_number).toBe(TEST_BANK_DETAILS.eft_account_number);

    const [row] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, body.reference));
    expect(row).toMatchObject({
      provider: "eft",
      status: "pending",
      package_id: card.package_id,
      amount: card.amount,
      lead_id: card.lead_id,
      client_id: card.client_id,
      client_email: "switcher@example.test",
    });
    expect(row.immediate_start_consent_at).not.toBeNull();

    const again = await eftInstead(card.external_transaction_id);
    expect(again.statusCode).toBe(201);
    expect(again.json().reference).toBe(body.reference);
    const mails = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.recipient, "switcher@example.test"), eq(outbox.kind, "eft-details")));
    expect(mails).toHaveLength(1);
    expect(mails[0].body).toContain(body.reference);
  });

  it("a cancelled card can be paid by EFT too", async () => {
    const card = await cardPayment("cancel");
    expect(card.status).toBe("cancelled");
    const res = await eftInstead(card.external_transaction_id);
    expect(res.statusCode, res.body).toBe(201);
  });

  it("a card payment that went through, an EFT reference or an unknown reference: refused, nothing made", async () => {
    const paid = await cardPayment("pay");
    expect(paid.status).toBe("paid");
    const before = (await eftRows()).length;
    const res = await eftInstead(paid.external_transaction_id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(EFT_INSTEAD_NOT_FAILED_MESSAGE);

    const [anEft] = await eftRows();
    expect((await eftInstead(anEft.external_transaction_id)).statusCode).toBe(404);
    expect((await eftInstead("STRMDSK_1700000000000_nosuchpayment")).statusCode).toBe(404);
    expect((await eftRows()).length).toBe(before);
  });

  it("the seed's placeholder comes back: EFT is off again at once", async () => {
    await t.app.db.update(siteSettings).set({ value: SETTING_PLACEHOLDER }).where(eq(siteSettings.key, "eft_bank_name"));
    t.app.cache.clear();
    expect(await methods()).toMatchObject({ eft: false });
  });
});
