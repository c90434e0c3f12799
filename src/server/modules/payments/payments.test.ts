// Card payments through the local sandbox provider: pricing on the server, the hosted test
// checkout, the signed webhook, idempotent capture with one receipt, and the status read.
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_APP_ID } from "@/server/adapters/payments/sandbox/adapter";
import { ikSignature } from "@/server/adapters/payments/signing";
import {
  auditLog,
  capturedPayments,
  clientLifecycleEvents,
  clients,
  leads,
  outbox,
  packages,
  pricingSpecials,
  sandboxPaylinks,
} from "@/server/db/schema";
import { open } from "@/server/lib/secret-box";
import { createAdmin } from "@/server/modules/admin-auth/test-helpers";
import { codeSentTo, makeClient, signIn } from "@/server/modules/client/test-helpers";
import { createTestApp, eventually, fillBankDetails, type TestApp } from "@/server/testing";
import { addMonths } from "@/shared/dates";
import { identifyMessage } from "@/shared/schemas";

const PUBLIC_URL = "http://localhost:8080";
const SANDBOX_SECRET = "sandbox-test-secret";
const WEBHOOK_PATH = "/api/payments/webhook/sandbox";

interface Mail {
  to: string[];
  data: string;
}

let t: TestApp;
let smtp: SMTPServer;
const mails: Mail[] = [];
const pkgId: Record<string, string> = {};
let ipCounter = 0;
/** Each request from its own address, so the per-IP public-write limit never interferes. */
const nextIp = () => `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let data = "";
      stream.on("data", (chunk) => {
        data += chunk;
      });
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const { port } = smtp.server.address() as AddressInfo;
  t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, SANDBOX_SECRET, PUBLIC_URL }, { seed: true });
  // the shop's first admin: the business's payment notices go to their address (the alerts e-mail)
  await createAdmin(t.app);
  await fillBankDetails(t.app);
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
});

afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** A POST as a browser on our site sends it (our Origin; a session cookie when given). */
const post = (url: string, payload: unknown, extra: Record<string, string> = {}, headers = { origin: PUBLIC_URL, ...extra }) =>
  t.app.inject({ method: "POST", url, payload: payload as object, headers, remoteAddress: nextIp() });

let payerCounter = 0;
/** A visitor's review step: a name, a WhatsApp number of their own, the s44 consent. */
const payer = () => ({
  name: `Payer ${++payerCounter}`,
  whatsapp: `0830${String(payerCounter).padStart(6, "0")}`,
  immediateStartConsent: true,
});

async function createPaylink(body: Record<string, unknown>, cookie?: string) {
  const response = await post("/api/payments/paylink", cookie ? body : { ...payer(), ...body }, cookie ? { cookie } : {});
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { success: true; paylinkUrl: string; externalTransactionID: string };
}

/** A browser pressing one of the checkout's buttons (a same-origin form post). */
const press = (ref: string, action: "pay" | "decline" | "cancel") =>
  t.app.inject({
    method: "POST",
    url: `/api/payments/sandbox/checkout/${ref}/${action}`,
    headers: { origin: PUBLIC_URL, "content-type": "application/x-www-form-urlencoded" },
    payload: "",
  });

const paymentRow = async (ref: string) =>
  (await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref)))[0];

/** A callback signed exactly as the sandbox (and iKhokha) sign theirs. */
function signedCallback(body: Record<string, unknown>, options: { secret?: string; appId?: string } = {}) {
  const rawBody = JSON.stringify(body);
  return {
    rawBody,
    headers: {
      "content-type": "application/json",
      "ik-appid": options.appId ?? SANDBOX_APP_ID,
      "ik-sign": ikSignature(WEBHOOK_PATH, rawBody, options.secret ?? SANDBOX_SECRET),
    },
  };
}

const deliver = (callback: { rawBody: string; headers: Record<string, string> }) =>
  t.app.inject({ method: "POST", url: WEBHOOK_PATH, payload: callback.rawBody, headers: callback.headers });

describe("POST /api/payments/paylink", () => {
  it("prices on the server with the special (R1450 for 3 Months) whatever amount the browser sends", async () => {
    const result = await createPaylink({ packageId: pkgId["3 Months"], amount: 1, price: 1, email: "sipho@example.co.za" });
    expect(result.success).toBe(true);
    expect(result.paylinkUrl).toBe(`${PUBLIC_URL}/api/payments/sandbox/checkout/${result.externalTransactionID}`);
    const row = await paymentRow(result.externalTransactionID);
    expect(row).toMatchObject({
      provider: "sandbox",
      amount: 1450,
      currency: "ZAR",
      status: "pending",
      package_id: pkgId["3 Months"],
      package_name: "3 Months",
      description: "3 Months IPTV Subscription",
      client_email: "sipho@example.co.za",
      client_id: null,
      lead_id: expect.any(String),
      immediate_start_consent_at: expect.any(Date),
    });
    const [ledger] = await t.app.db
      .select()
      .from(sandboxPaylinks)
      .where(eq(sandboxPaylinks.external_transaction_id, result.externalTransactionID));
    expect(ledger.amount_cents).toBe(145000);
    expect(row.provider_reference).toBe(ledger.id);
  });

  it("charges the list price when no special applies (Month to Month R650)", async () => {
    const result = await createPaylink({ packageId: pkgId["Month to Month"], amount: 0.01 });
    expect((await paymentRow(result.externalTransactionID)).amount).toBe(650);
  });

  it("ignores specials outside their date window, as GET /api/specials does", async () => {
    const day = 24 * 3600 * 1000;
    const ids = await t.app.db
      .insert(pricingSpecials)
      .values([
        { package_name: "6 Months", original_price: 3150, special_price: 2000, ends_at: new Date(Date.now() - day) },
        { package_name: "6 Months", original_price: 3150, special_price: 2100, starts_at: new Date(Date.now() + day) },
      ])
      .returning({ id: pricingSpecials.id });
    try {
      const result = await createPaylink({ packageId: pkgId["6 Months"] });
      expect((await paymentRow(result.externalTransactionID)).amount).toBe(3150);
    } finally {
      for (const { id } of ids) await t.app.db.delete(pricingSpecials).where(eq(pricingSpecials.id, id));
    }
  });

  it("makes externalTransactionID as STRMDSK_<timestamp>_<random base36>, unique per link", async () => {
    const before = Date.now();
    const a = await createPaylink({ packageId: pkgId["12 Months"] });
    const b = await createPaylink({ packageId: pkgId["12 Months"] });
    for (const { externalTransactionID: ref } of [a, b]) {
      const match = /^STRMDSK_(\d{13})_([0-9a-z]{6,})$/.exec(ref);
      expect(match, ref).not.toBeNull();
      expect(Number(match?.[1])).toBeGreaterThanOrEqual(before);
      expect(Number(match?.[1])).toBeLessThanOrEqual(Date.now());
    }
    expect(a.externalTransactionID).not.toBe(b.externalTransactionID);
  });

  it("answers 400 with the field's message for an inactive or unknown package, and without a package; nothing saved", async () => {
    const [inactive] = await t.app.db
      .insert(packages)
      .values({ name: "Old Plan", price: 400, duration: "1 Month", is_active: false })
      .returning({ id: packages.id });
    const before = await t.app.db.select().from(capturedPayments);
    for (const packageId of [inactive.id, "3f1c8a52-5d47-4c7a-9a51-0b7f6c1d2e3f"]) {
      const response = await post("/api/payments/paylink", { ...payer(), packageId });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ packageId: "That package is not available. Please choose another package." });
    }
    const missing = await post("/api/payments/paylink", { ...payer(), amount: 100 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({ code: "validation", message: "Please choose a package" });
    expect(missing.json().error.fields.packageId).toBe("Please choose a package");
    expect(await t.app.db.select().from(capturedPayments)).toHaveLength(before.length);
  });

  it("links a signed-in client's payment to them and takes their e-mail; another client's id is a 400", async () => {
    const lerato = await makeClient(t.app, { username: "lerato", full_name: "Lerato M", email: "lerato@example.co.za", status: "active" });
    const cookie = await signIn(t.app, lerato);
    const linked = await createPaylink({ packageId: pkgId["Month to Month"], clientId: lerato.id, immediateStartConsent: true }, cookie);
    expect(await paymentRow(linked.externalTransactionID)).toMatchObject({
      client_id: lerato.id,
      lead_id: null,
      client_email: "lerato@example.co.za",
    });
    const before = (await t.app.db.select().from(capturedPayments)).length;
    const other = await post(
      "/api/payments/paylink",
      { packageId: pkgId["Month to Month"], clientId: "0b6c7c1e-98a4-4b0e-8a55-7d2d7f1f9e10", immediateStartConsent: true },
      { cookie },
    );
    expect(other.statusCode).toBe(400);
    expect(other.json().error.fields).toEqual({ clientId: "That is not your account." });
    // Without a session, naming a client is not a way to pay for (or learn about) them.
    const stranger = await post("/api/payments/paylink", { ...payer(), packageId: pkgId["Month to Month"], clientId: lerato.id });
    expect(stranger.statusCode).toBe(400);
    expect((await t.app.db.select().from(capturedPayments)).length).toBe(before);
  });

  it("needs a name, a WhatsApp number and the consent from a visitor: 400 per field, nothing saved", async () => {
    const before = [(await t.app.db.select().from(capturedPayments)).length, (await t.app.db.select().from(leads)).length];
    const none = await post("/api/payments/paylink", { packageId: pkgId["3 Months"] });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.fields).toEqual({
      immediateStartConsent:
        "Please confirm that your subscription may start as soon as you have paid (this waives the 7-day cooling-off period)",
    });
    const unnamed = await post("/api/payments/paylink", { packageId: pkgId["3 Months"], immediateStartConsent: true });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().error.fields).toEqual({ name: "Please enter your full name", whatsapp: "Please enter a valid WhatsApp number" });
    const badNumber = await post("/api/payments/paylink", { ...payer(), whatsapp: "12", packageId: pkgId["3 Months"] });
    expect(badNumber.statusCode).toBe(400);
    expect(badNumber.json().error.fields.whatsapp).toBe("Please enter a valid WhatsApp number");
    const notTrue = await post("/api/payments/paylink", { ...payer(), immediateStartConsent: "yes", packageId: pkgId["3 Months"] });
    expect(notTrue.statusCode).toBe(400);
    expect([(await t.app.db.select().from(capturedPayments)).length, (await t.app.db.select().from(leads)).length]).toEqual(before);
  });

  it("makes the payer a lead, reuses their open lead on a second try, and links a returning client only with their code", async () => {
    const first = await createPaylink({
      packageId: pkgId["3 Months"],
      name: "Nomsa Dube",
      whatsapp: "082 555 0101",
      email: "nomsa@example.co.za",
    });
    const second = await createPaylink({ packageId: pkgId["6 Months"], name: "Nomsa Dube", whatsapp: "+27 82 555 0101" });
    const [a, b] = [await paymentRow(first.externalTransactionID), await paymentRow(second.externalTransactionID)];
    expect(a.lead_id).not.toBeNull();
    expect(b.lead_id).toBe(a.lead_id);
    const [lead] = await t.app.db
      .select()
      .from(leads)
      .where(eq(leads.id, a.lead_id as string));
    expect(lead).toMatchObject({
      form_type: "order",
      name: "Nomsa Dube",
      whatsapp_digits: "27825550101",
      package_name: "6 Months",
      client_id: null,
    });

    const thabo = await makeClient(t.app, {
      username: "thabo.k",
      full_name: "Thabo K",
      whatsapp: "27825550202",
      email: "thabo.k@example.co.za",
      status: "active",
    });
    // Their number alone proves nothing: the lead only names who it may be.
    const guessed = await createPaylink({ packageId: pkgId["3 Months"], name: "Thabo", whatsapp: "082 555 0202" });
    const unproven = await paymentRow(guessed.externalTransactionID);
    expect(unproven.client_id).toBeNull();
    const [guessedLead] = await t.app.db
      .select()
      .from(leads)
      .where(eq(leads.id, unproven.lead_id as string));
    expect(guessedLead).toMatchObject({ client_id: null, possible_duplicate_of: thabo.id });
    // With the code sent to the client's own contact (no Cloud API here: their e-mail), the payment is theirs.
    expect((await post("/api/payments/identify", { whatsapp: "082 555 0202", email: "thabo.k@example.co.za" })).json()).toEqual({
      message: identifyMessage(["t***@example.co.za"], false),
      sentTo: "t***@example.co.za",
    });
    const code = await codeSentTo(t.app, "thabo.k@example.co.za");
    const returning = await createPaylink({
      packageId: pkgId["3 Months"],
      name: "Thabo",
      whatsapp: "082 555 0202",
      verificationCode: code,
    });
    const row = await paymentRow(returning.externalTransactionID);
    expect(row.client_id).toBe(thabo.id);
    const [returningLead] = await t.app.db
      .select()
      .from(leads)
      .where(eq(leads.id, row.lead_id as string));
    expect(returningLead).toMatchObject({ client_id: thabo.id, possible_duplicate_of: null });
  });

  it("refuses a signed-in suspended client's payment with a 409 telling them to contact the business; their number alone goes on like anyone's", async () => {
    const sam = await makeClient(t.app, { username: "sam.s", full_name: "Sam S", whatsapp: "27825550303", status: "suspended" });
    const cookie = await signIn(t.app, sam);
    const message = "Your account is suspended, so we can't take a payment for it online. Please contact us to sort it out first.";
    const own = await post("/api/payments/paylink", { packageId: pkgId["3 Months"], immediateStartConsent: true }, { cookie });
    expect(own.statusCode).toBe(409);
    expect(own.json().error).toMatchObject({ code: "suspended", message });
    // Without the code, the number goes on as a stranger's would (issue 46); held once paid (suspended-hold.test.ts).
    const byNumber = await post("/api/payments/paylink", { ...payer(), whatsapp: "082 555 0303", packageId: pkgId["3 Months"] });
    expect(byNumber.statusCode).toBe(201);
    const eft = await post("/api/payments/eft", { ...payer(), whatsapp: "082 555 0303", packageId: pkgId["3 Months"] });
    expect(eft.statusCode).toBe(201);
  });

  it("is rate limited per IP (429 with Retry-After)", async () => {
    const ip = "192.0.2.77";
    const limit = t.config.PUBLIC_WRITE_LIMIT_PER_MIN;
    for (let i = 0; i < limit; i++) {
      const r = await t.app.inject({ method: "POST", url: "/api/payments/paylink", payload: {}, remoteAddress: ip });
      expect(r.statusCode).toBe(400);
    }
    const limited = await t.app.inject({ method: "POST", url: "/api/payments/paylink", payload: {}, remoteAddress: ip });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });
});

describe("the sandbox checkout", () => {
  it("renders a provider-like page: business, description, amount in rand, test marking, three buttons", async () => {
    const { paylinkUrl, externalTransactionID: ref } = await createPaylink({ packageId: pkgId["3 Months"] });
    const response = await t.app.inject({ method: "GET", url: new URL(paylinkUrl).pathname });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    const html = response.body;
    expect(html).toContain("StreamDesk");
    expect(html).toContain("3 Months IPTV Subscription");
    expect(html).toContain("R1,450");
    expect(html).toContain("Test payment — no card is charged");
    for (const action of ["pay", "decline", "cancel"]) {
      expect(html).toContain(`<form method="post" action="/api/payments/sandbox/checkout/${ref}/${action}">`);
    }
    expect(html).toMatch(/<button[^>]*>Pay<\/button>/);
    expect(html).toMatch(/<button[^>]*>Decline<\/button>/);
    expect(html).toMatch(/<button[^>]*>Cancel<\/button>/);
    // It lives under the app's CSP: no script of any kind, forms post to our own origin.
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(response.headers["content-security-policy"]).toContain("form-action 'self'");
    // Browsers send `Origin: null` with form posts under 'no-referrer', which the CSRF guard refuses.
    expect(response.headers["referrer-policy"]).toBe("same-origin");
  });

  it("answers 404 for an unknown reference", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/payments/sandbox/checkout/STRMDSK_1_nothing" })).statusCode).toBe(404);
    expect((await press("STRMDSK_1_nothing", "pay")).statusCode).toBe(404);
  });

  it("Pay → signed callback → paid → 303 to /payment/success; a second click only redirects", async () => {
    const { externalTransactionID: ref } = await createPaylink({ packageId: pkgId["3 Months"], email: "pay@example.co.za" });
    const response = await press(ref, "pay");
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/payment/success?ref=${ref}`);
    const row = await paymentRow(ref);
    expect(row.status).toBe("paid");
    expect(row.paid_at).not.toBeNull();
    expect(row.raw_payload).toMatchObject({ status: "SUCCESS", externalTransactionID: ref });

    const again = await press(ref, "decline");
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(`/payment/success?ref=${ref}`);
    expect((await paymentRow(ref)).status).toBe("paid");
    // The page itself now sends the browser to the result.
    const page = await t.app.inject({ method: "GET", url: `/api/payments/sandbox/checkout/${ref}` });
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe(`/payment/success?ref=${ref}`);
  });

  it("Decline → failed → /payment/failure", async () => {
    const { externalTransactionID: ref } = await createPaylink({ packageId: pkgId["6 Months"] });
    const response = await press(ref, "decline");
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/payment/failure?ref=${ref}`);
    expect((await paymentRow(ref)).status).toBe("failed");
  });

  it("Cancel → cancelled → /payment/cancel", async () => {
    const { externalTransactionID: ref } = await createPaylink({ packageId: pkgId["6 Months"] });
    const response = await press(ref, "cancel");
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/payment/cancel?ref=${ref}`);
    expect((await paymentRow(ref)).status).toBe("cancelled");
    expect((await paymentRow(ref)).paid_at).toBeNull();
  });

  it("refuses a button press from another site (CSRF guard)", async () => {
    const { externalTransactionID: ref } = await createPaylink({ packageId: pkgId["6 Months"] });
    const response = await t.app.inject({
      method: "POST",
      url: `/api/payments/sandbox/checkout/${ref}/pay`,
      headers: { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      payload: "",
    });
    expect(response.statusCode).toBe(403);
    expect((await paymentRow(ref)).status).toBe("pending");
  });
});

describe("POST /api/payments/webhook/sandbox", () => {
  async function settledPaylink(email = "ten@example.co.za") {
    const { externalTransactionID: ref } = await createPaylink({ packageId: pkgId["3 Months"], email });
    // The customer paid on the provider's side; the callback has not arrived yet.
    await t.app.db.update(sandboxPaylinks).set({ status: "SUCCESS" }).where(eq(sandboxPaylinks.external_transaction_id, ref));
    const row = await paymentRow(ref);
    return { ref, paylinkID: row.provider_reference as string };
  }

  const receiptsFor = async (ref: string) =>
    (await t.app.db.select().from(outbox).where(eq(outbox.kind, "receipt"))).filter((m) => m.body.includes(ref));

  it("ten deliveries of one signed callback capture once and queue one receipt, which is sent", async () => {
    const { ref, paylinkID } = await settledPaylink("ten@example.co.za");
    const callback = signedCallback({ paylinkID, status: "SUCCESS", externalTransactionID: ref, responseCode: "00" });
    const responses = await Promise.all(Array.from({ length: 10 }, () => deliver(callback)));
    for (const r of responses) {
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toEqual({ received: true });
    }
    const row = await paymentRow(ref);
    expect(row.status).toBe("paid");
    const receipts = await receiptsFor(ref);
    expect(receipts).toHaveLength(1);
    const [receipt] = receipts;
    expect(receipt).toMatchObject({ channel: "email", recipient: "ten@example.co.za", dedupe_key: `receipt:${row.id}` });
    expect(receipt.body).toContain("R1,450");
    expect(receipt.body).toContain("3 Months");
    expect(receipt.body).toContain("What happens next");
    expect(receipt.body).toContain("StreamDesk");
    expect(receipt.body).toMatch(/Need a person\?/);

    // An eleventh, later delivery is still answered 200 and changes nothing.
    expect((await deliver(callback)).statusCode).toBe(200);
    expect(await receiptsFor(ref)).toHaveLength(1);

    // The capture nudged the worker already; drain sends whatever it has not claimed yet.
    await t.app.outbox.drain();
    const sent = await eventually(() => {
      // The customer's receipt (the business gets its own notice of the payment).
      // quoted-printable may wrap the reference with a soft line break ("=\r\n"): read it unwrapped
      const found = mails.filter((m) => m.data.replace(/=\r\n/g, "").includes(ref) && m.to.includes("ten@example.co.za"));
      expect(found).toHaveLength(1);
      return found;
    }, 5000);
    expect(sent[0].to).toEqual(["ten@example.co.za"]);
  });

  it("a bad signature or a wrong app id is refused (401) and captures nothing", async () => {
    const { ref, paylinkID } = await settledPaylink();
    const body = { paylinkID, status: "SUCCESS", externalTransactionID: ref, responseCode: "00" };
    const forged = [
      signedCallback(body, { secret: "guessed-secret" }),
      signedCallback(body, { appId: "someone-else" }),
      { ...signedCallback(body), rawBody: JSON.stringify({ ...body, status: "SUCCESS " }) },
      { rawBody: JSON.stringify(body), headers: { "content-type": "application/json" } },
    ];
    for (const callback of forged) {
      const response = await deliver(callback);
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe("invalid_signature");
    }
    expect((await paymentRow(ref)).status).toBe("pending");
    expect(await receiptsFor(ref)).toHaveLength(0);
  });

  it("a signed SUCCESS the provider's status does not back up (unpaid, or another amount) captures nothing", async () => {
    const { externalTransactionID: ref } = await createPaylink({ packageId: pkgId["3 Months"], email: "x@example.co.za" });
    const paylinkID = (await paymentRow(ref)).provider_reference as string;
    const callback = signedCallback({ paylinkID, status: "SUCCESS", externalTransactionID: ref, responseCode: "00" });
    // The ledger still says pending.
    const unpaid = await deliver(callback);
    expect(unpaid.statusCode).toBe(409);
    expect(unpaid.json().error.code).toBe("payment_not_confirmed");
    // Paid, but R1 instead of R1,450.
    await t.app.db
      .update(sandboxPaylinks)
      .set({ status: "SUCCESS", amount_cents: 100 })
      .where(eq(sandboxPaylinks.external_transaction_id, ref));
    const mismatch = await deliver(callback);
    expect(mismatch.statusCode).toBe(409);
    expect(mismatch.json().error.code).toBe("amount_mismatch");
    const row = await paymentRow(ref);
    expect(row.status).toBe("pending");
    expect(row.paid_at).toBeNull();
    expect(row.notes).toContain("Not captured: the provider reported 100 cents, we priced 145000 cents.");
    expect(await receiptsFor(ref)).toHaveLength(0);
    // The status read does not capture it either.
    const status = await t.app.inject({ method: "GET", url: `/api/payments/${ref}` });
    expect(status.json().data.status).toBe("pending");
  });

  it("a callback that names another paylink, an unknown payment, or another provider is refused", async () => {
    const { ref } = await settledPaylink();
    const wrongLink = await deliver(signedCallback({ paylinkID: "not-ours", status: "SUCCESS", externalTransactionID: ref }));
    expect(wrongLink.statusCode).toBe(400);
    const unknown = await deliver(signedCallback({ paylinkID: "x", status: "SUCCESS", externalTransactionID: "STRMDSK_0_none" }));
    expect(unknown.statusCode).toBe(404);
    const other = await t.app.inject({ method: "POST", url: "/api/payments/webhook/ikhokha", payload: "{}", headers: {} });
    expect(other.statusCode).toBe(404);
    const notJson = await deliver({ ...signedCallback({}), rawBody: "not json" });
    expect(notJson.statusCode).toBe(401); // the signature covers the body: changed body, refused first
    expect((await paymentRow(ref)).status).toBe("pending");
  });

  it("FAILURE and CANCELLED change only a pending payment", async () => {
    const { externalTransactionID: ref } = await createPaylink({ packageId: pkgId["Month to Month"] });
    const paylinkID = (await paymentRow(ref)).provider_reference as string;
    expect((await deliver(signedCallback({ paylinkID, status: "CANCELLED", externalTransactionID: ref }))).statusCode).toBe(200);
    expect((await paymentRow(ref)).status).toBe("cancelled");
    expect((await deliver(signedCallback({ paylinkID, status: "FAILURE", externalTransactionID: ref }))).statusCode).toBe(200);
    expect((await paymentRow(ref)).status).toBe("cancelled");
  });
});

describe("a client's subscription", () => {
  const insertClient = async (username: string, subscriptionEnd: Date | null, status = "expired") => {
    const client = await makeClient(t.app, {
      username,
      full_name: username,
      email: `${username}@example.co.za`,
      status,
      subscription_end: subscriptionEnd,
    });
    return { id: client.id, cookie: await signIn(t.app, client) };
  };
  const payAs = async (cookie: string, packageName: string, action: "pay" | "decline" = "pay") => {
    const { externalTransactionID: ref } = await createPaylink({ packageId: pkgId[packageName], immediateStartConsent: true }, cookie);
    expect((await press(ref, action)).statusCode).toBe(303);
    return ref;
  };
  const clientRow = async (id: string) => (await t.app.db.select().from(clients).where(eq(clients.id, id)))[0];

  it("is extended by the package's months from the current end while it runs", async () => {
    const end = new Date(Date.now() + 10 * 24 * 3600 * 1000);
    const { id, cookie } = await insertClient("running", end, "active");
    await payAs(cookie, "3 Months");
    const client = await clientRow(id);
    expect(client.status).toBe("active");
    expect(client.subscription_end?.getTime()).toBe(addMonths(end, 3).getTime());
    expect(client.package_name).toBe("3 Months");
    const [receipt] = (await t.app.db.select().from(outbox).where(eq(outbox.client_id, id))).filter((m) => m.kind === "receipt");
    expect(receipt.recipient).toBe("running@example.co.za");
    expect(receipt.body).toContain("Your subscription is active until");
  });

  it("counts from the old end in grace, and from the trial's end for a trial: no day lost", async () => {
    const ended = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    const grace = await insertClient("in.grace", ended, "grace");
    await payAs(grace.cookie, "Month to Month");
    expect((await clientRow(grace.id)).subscription_end?.getTime()).toBe(addMonths(ended, 1).getTime());
    expect((await clientRow(grace.id)).status).toBe("active");

    const trialEnd = new Date(Date.now() + 5 * 3600 * 1000);
    const trial = await insertClient("on.trial", trialEnd, "trial");
    await payAs(trial.cookie, "Month to Month");
    expect((await clientRow(trial.id)).subscription_end?.getTime()).toBe(addMonths(trialEnd, 1).getTime());
    expect((await clientRow(trial.id)).status).toBe("active");
  });

  it("starts from now when the subscription had expired, or the client was pending", async () => {
    for (const [name, end, status] of [
      ["lapsed", new Date(Date.now() - 40 * 24 * 3600 * 1000), "expired"],
      ["waiting", null, "pending"],
    ] as const) {
      const { id, cookie } = await insertClient(name, end, status);
      const before = Date.now();
      await payAs(cookie, "Month to Month");
      const client = await clientRow(id);
      expect(client.status).toBe("active");
      const endMs = client.subscription_end?.getTime() ?? 0;
      expect(endMs).toBeGreaterThanOrEqual(addMonths(before, 1).getTime() - 1000);
      expect(endMs).toBeLessThanOrEqual(addMonths(Date.now(), 1).getTime());
      expect(client.subscription_start?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    }
  });

  it("is not touched by a declined payment", async () => {
    const end = new Date(Date.now() + 5 * 24 * 3600 * 1000);
    const { id, cookie } = await insertClient("declined", end, "active");
    await payAs(cookie, "3 Months", "decline");
    expect((await clientRow(id)).subscription_end?.getTime()).toBe(end.getTime());
  });

  it("records each change in the lifecycle history once, however often the callback comes", async () => {
    const { id, cookie } = await insertClient("history", null, "pending");
    const ref = await payAs(cookie, "3 Months");
    const row = await paymentRow(ref);
    const callback = signedCallback({
      paylinkID: row.provider_reference,
      status: "SUCCESS",
      externalTransactionID: ref,
      responseCode: "00",
    });
    for (let i = 0; i < 3; i++) expect((await deliver(callback)).statusCode).toBe(200);
    const events = await t.app.db.select().from(clientLifecycleEvents).where(eq(clientLifecycleEvents.client_id, id));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      cause: "payment-captured",
      cause_key: `payment:${row.id}`,
      status_before: "pending",
      status_after: "active",
      actor: `payment ${ref}`,
    });
    const audits = await t.app.db.select().from(auditLog).where(eq(auditLog.resource_id, id));
    expect(audits.filter((a) => a.action === "payment-captured")).toHaveLength(1);
  });
});

describe("a visitor's payment, captured", () => {
  it("makes the client from the lead: term from the payment, portal login and a set-password link on WhatsApp, the lead converted", async () => {
    const { externalTransactionID: ref } = await createPaylink({
      packageId: pkgId["3 Months"],
      name: "Zanele Khumalo",
      whatsapp: "083 777 1234",
    });
    const before = Date.now();
    expect((await press(ref, "pay")).headers.location).toBe(`/payment/success?ref=${ref}`);
    const payment = await paymentRow(ref);
    expect(payment).toMatchObject({ status: "paid", client_created: true });
    const [client] = await t.app.db
      .select()
      .from(clients)
      .where(eq(clients.id, payment.client_id as string));
    expect(client).toMatchObject({ full_name: "Zanele Khumalo", whatsapp: "27837771234", status: "active", package_name: "3 Months" });
    expect(client.username).toBe("zanele.k");
    expect(client.subscription_end?.getTime()).toBeGreaterThanOrEqual(addMonths(before, 3).getTime() - 1000);
    const [lead] = await t.app.db
      .select()
      .from(leads)
      .where(eq(leads.id, payment.lead_id as string));
    expect(lead).toMatchObject({ status: "converted", client_id: client.id });

    const messages = await t.app.db.select().from(outbox).where(eq(outbox.client_id, client.id));
    const welcome = messages.find((m) => m.kind === "welcome");
    expect(welcome).toMatchObject({ channel: "whatsapp", recipient: "27837771234" });
    expect(welcome?.body).toContain("Username: zanele.k");
    // The set-password link is a key to the account: stored encrypted, never readable in the outbox.
    expect(welcome?.body).toContain("Choose your password here (the link works for 7 days, once): {{secret}}");
    expect(welcome?.body).not.toContain("token=");
    const link = await open(t.app.db, welcome?.secret_enc as string);
    expect(link).toMatch(/\/client-password-reset\?token=[A-Za-z0-9_-]{43}$/);
    expect(messages.filter((m) => m.kind === "receipt")).toHaveLength(1);

    // The result page says exactly that, with the number masked.
    const view = (await t.app.inject({ method: "GET", url: `/api/payments/${ref}` })).json().data;
    expect(view.outcome).toEqual({
      account: "created",
      subscription_end: client.subscription_end?.toISOString(),
      suspended: false,
      sent_to: [{ channel: "whatsapp", hint: "ending 1234" }],
      messages: [
        { kind: "receipt", channel: "whatsapp", state: expect.stringMatching(/^(queued|owner)$/) },
        { kind: "welcome", channel: "whatsapp", state: expect.stringMatching(/^(queued|owner)$/) },
      ],
    });
    expect(JSON.stringify(view)).not.toContain("27837771234");
  });

  it("renews a returning client who gives the code instead of making a second account", async () => {
    const end = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    const kagiso = await makeClient(t.app, {
      username: "kagiso.m",
      full_name: "Kagiso M",
      whatsapp: "27837779999",
      email: "kagiso.m@example.co.za",
      status: "active",
      subscription_end: end,
    });
    await post("/api/payments/identify", { whatsapp: "083 777 9999", email: "kagiso.m@example.co.za" });
    const { externalTransactionID: ref } = await createPaylink({
      packageId: pkgId["Month to Month"],
      name: "Kagiso",
      whatsapp: "083 777 9999",
      verificationCode: await codeSentTo(t.app, "kagiso.m@example.co.za"),
    });
    await press(ref, "pay");
    expect(await t.app.db.select().from(clients).where(eq(clients.whatsapp, "27837779999"))).toHaveLength(1);
    const [client] = await t.app.db.select().from(clients).where(eq(clients.id, kagiso.id));
    expect(client.subscription_end?.getTime()).toBe(addMonths(end, 1).getTime());
    const view = (await t.app.inject({ method: "GET", url: `/api/payments/${ref}` })).json().data;
    // The receipt goes where the client's messages go: their e-mail (the code needed one: no Cloud API here).
    expect(view.outcome).toMatchObject({
      account: "renewed",
      suspended: false,
      sent_to: [{ channel: "email", hint: "k***@example.co.za" }],
    });
  });

  it("tells the business of every payment, once", async () => {
    const { externalTransactionID: ref } = await createPaylink({
      packageId: pkgId["3 Months"],
      name: "Bongani Z",
      whatsapp: "083 777 4444",
    });
    await press(ref, "pay");
    const payment = await paymentRow(ref);
    const notices = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `payment-received:${payment.id}`));
    expect(notices).toHaveLength(1);
    expect(notices[0].subject).toContain("Payment received: R1,450 for 3 Months from Bongani Z");
    expect(notices[0].body).toContain("The line is being created on the panel automatically");
    expect(notices[0].body).not.toContain("portal login sent");
  });
});

describe("GET /api/payments/:ref", () => {
  it("answers the payment's public facts, no personal data", async () => {
    const { externalTransactionID: ref } = await createPaylink({ packageId: pkgId["3 Months"], email: "private@example.co.za" });
    const pending = await t.app.inject({ method: "GET", url: `/api/payments/${ref}` });
    expect(pending.statusCode).toBe(200);
    expect(pending.headers["cache-control"]).toBe("no-store");
    const data = pending.json().data;
    expect(data).toEqual({
      external_transaction_id: ref,
      status: "pending",
      amount: 1450,
      currency: "ZAR",
      package_name: "3 Months",
      provider: "sandbox",
      created_at: expect.any(String),
      paid_at: null,
      outcome: { account: "none", subscription_end: null, suspended: false, sent_to: [], messages: [] },
    });
    expect(pending.body).not.toContain("private@example.co.za");

    await press(ref, "pay");
    const paid = (await t.app.inject({ method: "GET", url: `/api/payments/${ref}` })).json().data;
    expect(paid.status).toBe("paid");
    expect(new Date(paid.paid_at).getTime()).toBeGreaterThanOrEqual(new Date(paid.created_at).getTime());
  });

  it("answers 404 for an unknown reference and 400 for one that cannot be a reference", async () => {
    const unknown = await t.app.inject({ method: "GET", url: "/api/payments/STRMDSK_1_unknown" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe("not_found");
    expect((await t.app.inject({ method: "GET", url: "/api/payments/bad%20ref" })).statusCode).toBe(400);
  });
});
