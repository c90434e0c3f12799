// EFT: bank details from settings, a short unique reference, a pending payment for an admin
// to confirm, and the details by e-mail when an address was given.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPayments, outbox, packages, siteSettings } from "@/server/db/schema";
import { createTestApp, eventually, fillBankDetails, TEST_BANK_DETAILS, type TestApp } from "@/server/testing";
import { EFT_UNAVAILABLE_MESSAGE } from "@/shared/constants";
import { createPaymentsService, EFT_REFERENCE_ALPHABET } from "./service";

let t: TestApp;
const pkgId: Record<string, string> = {};
let ipCounter = 0;
const nextIp = () => `10.1.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
const REFERENCE = new RegExp(`^SD-[${EFT_REFERENCE_ALPHABET}]{6}$`);

beforeAll(async () => {
  t = await createTestApp({}, { seed: true });
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
});
afterAll(async () => {
  await t?.close();
});

let payerCounter = 0;
/** What the review step sends besides the package: a name, a WhatsApp number of their own, the s44 consent. */
const payer = () => ({ name: "EFT Payer", whatsapp: `0840${String(++payerCounter).padStart(6, "0")}`, immediateStartConsent: true });

const eft = (payload: Record<string, unknown>, remoteAddress = nextIp()) =>
  t.app.inject({ method: "POST", url: "/api/payments/eft", payload: { ...payer(), ...payload }, remoteAddress });

const setSetting = (key: string, value: string) => t.app.db.update(siteSettings).set({ value }).where(eq(siteSettings.key, key));

describe("POST /api/payments/eft", () => {
  it("refuses EFT while the bank details are the seed's placeholders: nothing shown, mailed or recorded", async () => {
    const methods = await t.app.inject({ method: "GET", url: "/api/payments/methods" });
    expect(methods.json().data.eft).toBe(false);
    const before = (await t.app.db.select().from(capturedPayments)).length;
    const response = await eft({ packageId: pkgId["3 Months"], email: "early@example.test" });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({ code: "conflict", message: EFT_UNAVAILABLE_MESSAGE });
    expect(response.body).not.toContain("Set in Admin");
    expect((await t.app.db.select().from(capturedPayments)).length).toBe(before);
    expect((await t.app.db.select().from(outbox)).filter((m) => m.recipient === "early@example.test")).toHaveLength(0);

    // One real detail missing is still not enough; all four make EFT available.
    await fillBankDetails(t.app, { ...TEST_BANK_DETAILS, eft_branch_code: " " });
    expect((await t.app.inject({ method: "GET", url: "/api/payments/methods" })).json().data.eft).toBe(false);
    await fillBankDetails(t.app);
    expect((await t.app.inject({ method: "GET", url: "/api/payments/methods" })).json().data.eft).toBe(true);
  });

  it("answers the reference, the special price and the bank details, and records a pending EFT payment", async () => {
    const response = await eft({ packageId: pkgId["3 Months"], name: "Naledi K", whatsapp: "082 555 1234", amount: 1 });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ success: true, amount: 1450, package_name: "3 Months" });
    expect(body.reference).toMatch(REFERENCE);
    expect(body.bank).toEqual({
      bank_name: TEST_BANK_DETAILS.eft_bank_name,
      account_name: TEST_BANK_DETAILS.eft_account_name,
      account_number: TEST_BANK_DETAILS.eft_account_number,
      branch_code: TEST_BANK_DETAILS.eft_branch_code,
      account_type: TEST_BANK_DETAILS.eft_account_type,
    });
    const [row] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, body.reference));
    expect(row).toMatchObject({
      provider: "eft",
      status: "pending",
      amount: 1450,
      currency: "ZAR",
      package_name: "3 Months",
      description: "3 Months IPTV Subscription",
      client_email: "",
    });
    expect(row.notes).toContain("Naledi K");
    expect(row.notes).toContain("082 555 1234");
    // No e-mail address given: nothing queued to the payer (the owner's alert is lib/owner-alerts.ts's).
    expect((await t.app.db.select().from(outbox)).filter((m) => m.body.includes(body.reference) && m.kind !== "owner-alert")).toHaveLength(
      0,
    );
  });

  it("uses the operator's bank details and reference prefix, and e-mails them when an address is given", async () => {
    await setSetting("eft_bank_name", "FNB");
    await setSetting("eft_account_name", "Demo Streams (Pty) Ltd");
    await setSetting("eft_account_number", "62812345678");
    await setSetting("eft_branch_code", "250655");
    await setSetting("eft_account_type", "Cheque");
    await setSetting("eft_reference_prefix", "acme");
    // The settings reach the server's cache through the change feed.
    const body = await eventually(async () => {
      const response = await eft({ packageId: pkgId["Month to Month"], email: "pay.eft@example.co.za", name: "Pieter" });
      expect(response.statusCode).toBe(201);
      const json = response.json();
      expect(json.bank.bank_name).toBe("FNB");
      expect(json.reference).toMatch(/^ACME-/);
      return json;
    }, 5000);
    expect(body.bank).toEqual({
      bank_name: "FNB",
      account_name: "Demo Streams (Pty) Ltd",
      account_number: "62812345678",
      branch_code: "250655",
      account_type: "Cheque",
    });
    expect(body.reference).toMatch(new RegExp(`^ACME-[${EFT_REFERENCE_ALPHABET}]{6}$`));
    expect(body.amount).toBe(650);
    const [mail] = (await t.app.db.select().from(outbox)).filter((m) => m.body.includes(body.reference) && m.kind !== "owner-alert");
    expect(mail).toMatchObject({ channel: "email", recipient: "pay.eft@example.co.za", kind: "eft-details" });
    expect(mail.subject).toContain(body.reference);
    for (const text of [
      "Hi Pieter",
      "FNB",
      "62812345678",
      "250655",
      "R650",
      `Reference: ${body.reference}`,
      "What happens next",
      "StreamDesk",
    ]) {
      expect(mail.body).toContain(text);
    }
    await setSetting("eft_reference_prefix", "SD");
    await eventually(async () => expect((await eft({ packageId: pkgId["Month to Month"] })).json().reference).toMatch(REFERENCE), 5000);
  });

  it("gives the same person the same open reference again for the same package, and a new one for another", async () => {
    const person = { name: "Repeat Asker", whatsapp: "082 555 9090" };
    const first = (await eft({ ...person, packageId: pkgId["3 Months"] })).json();
    const again = (await eft({ ...person, packageId: pkgId["3 Months"] })).json();
    expect(again.reference).toBe(first.reference);
    const other = (await eft({ ...person, packageId: pkgId["6 Months"] })).json();
    expect(other.reference).not.toBe(first.reference);
    const rows = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, first.reference));
    expect(rows).toHaveLength(1);
  });

  it("makes a unique reference for every request", async () => {
    const references = new Set<string>();
    for (let i = 0; i < 25; i++) {
      const response = await eft({ packageId: pkgId["6 Months"] });
      expect(response.statusCode).toBe(201);
      references.add(response.json().reference);
    }
    expect(references.size).toBe(25);
  });

  it("tries another reference on a collision, and gives up clearly when none is free", async () => {
    const codes = ["KQ7RT2", "KQ7RT2", "ZZ99XA"];
    const service = createPaymentsService(t.app, { eftCode: () => codes.shift() ?? "KQ7RT2" });
    const first = await service.createEft({ ...payer(), packageId: pkgId["12 Months"] });
    const second = await service.createEft({ ...payer(), packageId: pkgId["12 Months"] });
    expect(first.reference).toBe("SD-KQ7RT2");
    expect(second.reference).toBe("SD-ZZ99XA");
    await expect(service.createEft({ ...payer(), packageId: pkgId["12 Months"] })).rejects.toMatchObject({ statusCode: 503 });
    const rows = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, "SD-KQ7RT2"));
    expect(rows).toHaveLength(1);
  });

  it("answers 400 with the field's message for an inactive package and for bad input", async () => {
    const [inactive] = await t.app.db
      .insert(packages)
      .values({ name: "Retired", price: 300, duration: "1 Month", is_active: false })
      .returning({ id: packages.id });
    const unavailable = await eft({ packageId: inactive.id });
    expect(unavailable.statusCode).toBe(400);
    expect(unavailable.json().error.fields.packageId).toBe("That package is not available. Please choose another package.");
    const badEmail = await eft({ packageId: pkgId["3 Months"], email: "not-an-address" });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error).toMatchObject({
      code: "validation",
      message: "Please enter a valid email address",
      fields: { email: "Please enter a valid email address" },
    });
    expect((await eft({})).json().error.message).toBe("Please choose a package");
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/api/payments/eft",
      payload: { packageId: pkgId["3 Months"], immediateStartConsent: true },
      remoteAddress: nextIp(),
    });
    expect(anonymous.statusCode).toBe(400);
    expect(anonymous.json().error.fields).toEqual({
      name: "Please enter your full name",
      whatsapp: "Please enter a valid WhatsApp number",
    });
  });

  it("is rate limited per IP", async () => {
    const ip = "192.0.2.99";
    for (let i = 0; i < t.config.PUBLIC_WRITE_LIMIT_PER_MIN; i++) expect((await eft({}, ip)).statusCode).toBe(400);
    expect((await eft({}, ip)).statusCode).toBe(429);
  });
});
