// The portal's data: every /api/client/* route reads and writes only the signed-in client's
// rows whatever ids are sent (IDOR), the profile and its computed subscription, payments and
// receipts, renewal through the sandbox checkout and by EFT, specials, content requests,
// notices, apps, and what a suspended client is refused.
import { and, asc, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  capturedPayments,
  clients,
  contentRequests,
  creditNotes,
  dataRequests,
  incidents,
  invoices,
  notices,
  packages,
  passwordResetTokens,
  sessions,
  statusSubscribers,
  systemComponents,
} from "@/server/db/schema";
import { createMessagingTestApp, type MessagingTestApp } from "@/server/test-support/messaging-app";
import { eventually, fillBankDetails } from "@/server/testing";
import { addMonths } from "@/shared/dates";
import { cookieFrom, makeClient, nextIp, PUBLIC_URL, signIn, type TestClient } from "./test-helpers";

const DAY = 86_400_000;

let t: MessagingTestApp;
let ayesha: TestClient; // A: the signed-in client
let bongani: TestClient; // B: the other client, whose rows must never show or change
let cookieA: string;
let cookieB: string;
const pkg: Record<string, string> = {};
const B_PAID_REF = "STRMDSK_1700000000000_bonganipaid";
const B_PENDING_REF = "SD-BONGAN";
const B_REQUEST_TITLE = "Bongani's secret channel wish";
const B_LINE_PASSWORD = "b-line-secret-771";
const B_INVOICE = "INV-000777";
const B_CREDIT_NOTE = "CN-000777";
const A_PAID_REF = "STRMDSK_1700000000001_ayeshapaid0";

beforeAll(async () => {
  t = await createMessagingTestApp({ config: { PUBLIC_URL, PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 }, build: { seed: true } });
  await fillBankDetails(t.app);
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkg[p.name] = p.id;
  const now = Date.now();
  ayesha = await makeClient(t.app, {
    username: "ayesha.p",
    full_name: "Ayesha Patel",
    email: "ayesha@example.co.za",
    whatsapp: "0831112222",
    communication_method: "whatsapp",
    status: "active",
    package_id: pkg["3 Months"],
    package_name: "3 Months",
    subscription_start: new Date(now - 60 * DAY),
    subscription_end: new Date(now + 30 * DAY),
    device: "firestick",
    line_username: "ayesha_line",
    line_password: "a-line-pass-123",
    line_portal_url: "http://line.example.test:8080",
  });
  bongani = await makeClient(t.app, {
    username: "bongani.z",
    full_name: "Bongani Zulu",
    email: "bongani@example.co.za",
    whatsapp: "0849998888",
    status: "active",
    package_id: pkg["Month to Month"],
    package_name: "Month to Month",
    subscription_start: new Date(now - 20 * DAY),
    subscription_end: new Date(now + 10 * DAY),
    device: "smart-tv-samsung",
    line_username: "bongani_line",
    line_password: B_LINE_PASSWORD,
  });
  await t.app.db.insert(capturedPayments).values([
    {
      provider: "sandbox",
      external_transaction_id: B_PAID_REF,
      amount: 650,
      package_id: pkg["Month to Month"],
      package_name: "Month to Month",
      client_id: bongani.id,
      status: "paid",
      paid_at: new Date(now - 20 * DAY),
    },
    { provider: "eft", external_transaction_id: B_PENDING_REF, amount: 650, package_name: "Month to Month", client_id: bongani.id },
    {
      provider: "ikhokha",
      external_transaction_id: A_PAID_REF,
      amount: 1450,
      package_id: pkg["3 Months"],
      package_name: "3 Months",
      description: "3 Months IPTV Subscription",
      client_id: ayesha.id,
      status: "paid",
      paid_at: new Date(now - 60 * DAY),
      created_at: new Date(now - 60 * DAY),
    },
    {
      provider: "ikhokha",
      external_transaction_id: "STRMDSK_1700000000002_ayeshafail0",
      amount: 1450,
      package_name: "3 Months",
      client_id: ayesha.id,
      status: "failed",
      created_at: new Date(now - 61 * DAY),
    },
  ]);
  await t.app.db.insert(contentRequests).values({ client_id: bongani.id, request_type: "channel", title: B_REQUEST_TITLE });
  // B's invoice and credit note for that payment.
  const [bPaid] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, B_PAID_REF));
  const [bInvoice] = await t.app.db
    .insert(invoices)
    .values({
      number: B_INVOICE,
      payment_id: bPaid.id,
      client_id: bongani.id,
      kind: "invoice",
      issued_at: new Date(now - 20 * DAY),
      seller: { name: "Shop" },
      buyer: { name: "Bongani Zulu", email: "bongani@example.co.za" },
      description: "Month to Month IPTV Subscription",
      list_cents: 65000,
      excl_cents: 65000,
      vat_cents: 0,
      incl_cents: 65000,
      vat_rate: "0",
      reference: B_PAID_REF,
    })
    .returning();
  await t.app.db.insert(creditNotes).values({
    number: B_CREDIT_NOTE,
    invoice_id: bInvoice.id,
    payment_id: bPaid.id,
    client_id: bongani.id,
    issued_at: new Date(),
    reason: "Goodwill",
    excl_cents: 1000,
    vat_cents: 0,
    incl_cents: 1000,
    method: "manual",
  });
  cookieA = await signIn(t.app, ayesha);
  cookieB = await signIn(t.app, bongani);
});

afterAll(async () => {
  await t?.close();
});

const call = (method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE", url: string, cookie: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { origin: "http://localhost:8080", cookie },
    remoteAddress: nextIp(),
    ...(payload ? { payload } : {}),
  });

/** Every route the app registered under /api/client, read from Fastify's own route tree. */
function clientRoutes(): string[] {
  const found: string[] = [];
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split("\n")) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    const path = stack.join("");
    for (const method of (m[3] ?? "").split(", ").filter(Boolean)) {
      if (method !== "HEAD" && path.startsWith("/api/client/")) found.push(`${method} ${path}`);
    }
  }
  return [...new Set(found)].sort();
}

describe("IDOR: A's session never reads or changes B's rows", () => {
  it("covers every /api/client/* route, and B's data never leaves nor changes", async () => {
    const snapshot = async () => ({
      client: (await t.app.db.select().from(clients).where(eq(clients.id, bongani.id)))[0],
      payments: await t.app.db
        .select()
        .from(capturedPayments)
        .where(eq(capturedPayments.client_id, bongani.id))
        .orderBy(asc(capturedPayments.external_transaction_id)),
      requests: await t.app.db.select().from(contentRequests).where(eq(contentRequests.client_id, bongani.id)),
      sessions: await t.app.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.client_id, bongani.id)),
      resets: await t.app.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.client_id, bongani.id)),
      statusUpdates: await t.app.db.select().from(statusSubscribers).where(eq(statusSubscribers.client_id, bongani.id)),
      dataRequests: await t.app.db.select().from(dataRequests).where(eq(dataRequests.client_id, bongani.id)),
    });
    const before = await snapshot();
    const B = bongani.id;
    const hostile = { id: B, client_id: B, clientId: B, username: B, user: bongani.username };
    const qs = `?id=${B}&client_id=${B}&clientId=${B}&username=${bongani.username}`;
    const newPassword = "Ayesha's new passphrase 1";

    const matrix: { route: string; send: () => Promise<LightMyRequestResponse>; expect: number[] }[] = [
      { route: "GET /api/client/session", send: () => call("GET", `/api/client/session${qs}`, cookieA), expect: [200] },
      { route: "GET /api/client/me", send: () => call("GET", `/api/client/me${qs}`, cookieA), expect: [200] },
      {
        route: "PATCH /api/client/me",
        send: () =>
          call("PATCH", `/api/client/me${qs}`, cookieA, {
            ...hostile,
            full_name: "Ayesha P. Patel",
            status: "active",
            package_id: pkg["24 Months"],
            subscription_end: "2099-01-01T00:00:00Z",
            line_password: "stolen",
            password_hash: "x",
          }),
        expect: [200],
      },
      {
        route: "POST /api/client/password",
        send: () => call("POST", "/api/client/password", cookieA, { ...hostile, currentPassword: ayesha.password, newPassword }),
        expect: [200],
      },
      {
        route: "POST /api/client/contact-change",
        send: () => call("POST", "/api/client/contact-change", cookieA, { ...hostile, email: "ayesha.new@example.co.za" }),
        expect: [202],
      },
      {
        // a wrong code (one in a million to be right): counted against A's own code only
        route: "POST /api/client/contact-change/confirm",
        send: () => call("POST", "/api/client/contact-change/confirm", cookieA, { ...hostile, code: "000000" }),
        expect: [400],
      },
      { route: "GET /api/client/payments", send: () => call("GET", `/api/client/payments${qs}`, cookieA), expect: [200] },
      {
        route: "GET /api/client/payments/:ref/receipt",
        send: () => call("GET", `/api/client/payments/${B_PAID_REF}/receipt${qs}`, cookieA),
        expect: [404],
      },
      {
        route: "POST /api/client/renew",
        send: () => call("POST", "/api/client/renew", cookieA, { ...hostile, method: "card", packageId: pkg["Month to Month"] }),
        expect: [201],
      },
      { route: "GET /api/client/invoices", send: () => call("GET", `/api/client/invoices${qs}`, cookieA), expect: [200] },
      {
        route: "GET /api/client/invoices/:file",
        send: () => call("GET", `/api/client/invoices/${B_INVOICE}.pdf${qs}`, cookieA),
        expect: [404],
      },
      {
        route: "GET /api/client/credit-notes/:file",
        send: () => call("GET", `/api/client/credit-notes/${B_CREDIT_NOTE}.pdf${qs}`, cookieA),
        expect: [404],
      },
      { route: "GET /api/client/billing-details", send: () => call("GET", `/api/client/billing-details${qs}`, cookieA), expect: [200] },
      {
        route: "PUT /api/client/billing-details",
        send: () => call("PUT", `/api/client/billing-details${qs}`, cookieA, { ...hostile, company: "Ayesha Trading" }),
        expect: [200],
      },
      { route: "GET /api/client/specials", send: () => call("GET", `/api/client/specials${qs}`, cookieA), expect: [200] },
      { route: "GET /api/client/content-requests", send: () => call("GET", `/api/client/content-requests${qs}`, cookieA), expect: [200] },
      {
        route: "POST /api/client/content-requests",
        send: () => call("POST", "/api/client/content-requests", cookieA, { ...hostile, request_type: "film", title: "A's film" }),
        expect: [201],
      },
      { route: "GET /api/client/notices", send: () => call("GET", `/api/client/notices${qs}`, cookieA), expect: [200] },
      // A's whole export, asked for with B's ids: none of B's invoices, payments, line or requests.
      { route: "GET /api/client/data-export", send: () => call("GET", `/api/client/data-export${qs}`, cookieA), expect: [200] },
      // POPIA s24 requests (issue 46 item 7): A's own, made and read with B's ids in the body and query
      { route: "GET /api/client/data-requests", send: () => call("GET", `/api/client/data-requests${qs}`, cookieA), expect: [200] },
      {
        route: "POST /api/client/data-requests",
        send: () =>
          call("POST", "/api/client/data-requests", cookieA, { ...hostile, kind: "correction", details: "A's surname", correction: "A's" }),
        expect: [201],
      },
      {
        route: "POST /api/client/erasure-request",
        send: () => call("POST", "/api/client/erasure-request", cookieA, { ...hostile, details: "A's own" }),
        expect: [201],
      },
      {
        // A's correction made just above is still open: 409 naming A's, nothing of B's
        route: "POST /api/client/correction-request",
        send: () => call("POST", "/api/client/correction-request", cookieA, { ...hostile, details: "A's surname", correction: "A's" }),
        expect: [409],
      },
      { route: "GET /api/client/apps", send: () => call("GET", `/api/client/apps${qs}&device=smart-tv-samsung`, cookieA), expect: [200] },
      { route: "GET /api/client/status-updates", send: () => call("GET", `/api/client/status-updates${qs}`, cookieA), expect: [200] },
      // A's own line only (an app login, or not made yet): no MAC to change, no ISP lock of B's to clear.
      {
        route: "POST /api/client/line/mac",
        send: () => call("POST", `/api/client/line/mac${qs}`, cookieA, { ...hostile, mac: "00:1A:79:12:34:56" }),
        expect: [409],
      },
      {
        route: "POST /api/client/line/isp-reset",
        send: () => call("POST", `/api/client/line/isp-reset${qs}`, cookieA, hostile),
        expect: [202, 409],
      },
      {
        route: "PUT /api/client/status-updates",
        send: () => call("PUT", `/api/client/status-updates${qs}`, cookieA, { ...hostile, subscribed: true }),
        expect: [200],
      },
      // Automatic renewal (issue 44): A's own only (A never chose it: nothing to show or turn off).
      { route: "GET /api/client/auto-renew", send: () => call("GET", `/api/client/auto-renew${qs}`, cookieA), expect: [200] },
      {
        route: "PUT /api/client/auto-renew",
        send: () => call("PUT", `/api/client/auto-renew${qs}`, cookieA, { ...hostile, enabled: false }),
        expect: [200],
      },
      {
        route: "DELETE /api/client/auto-renew",
        send: () => call("DELETE", `/api/client/auto-renew${qs}`, cookieA),
        expect: [200],
      },
      {
        // "Use another card": A has no card kept, so there is no card to change (409), and none of B's
        route: "POST /api/client/auto-renew/card",
        send: () => call("POST", `/api/client/auto-renew/card${qs}`, cookieA, hostile),
        expect: [409],
      },
      // Public routes, sent with A's cookie and B's ids anyway: they only ever act on what they are given.
      {
        route: "POST /api/client/login",
        send: () => call("POST", "/api/client/login", cookieA, { ...hostile, username: "ayesha.p", password: newPassword }),
        expect: [200],
      },
      {
        route: "POST /api/client/password-reset/confirm",
        send: () => call("POST", "/api/client/password-reset/confirm", cookieA, { ...hostile, token: "x", password: "Whatever 12345" }),
        expect: [400],
      },
      {
        route: "POST /api/client/password-reset/request",
        send: () => call("POST", "/api/client/password-reset/request", cookieA, { ...hostile, identifier: "ayesha.p" }),
        expect: [200],
      },
      // Last: A's logout ends A's session only.
      { route: "POST /api/client/logout", send: () => call("POST", "/api/client/logout", cookieA, hostile), expect: [200] },
    ];

    // A route added without a line here fails this test until someone thinks about its IDOR.
    expect(matrix.map((m) => m.route).sort()).toEqual(clientRoutes());

    const secrets = [
      bongani.id,
      bongani.username,
      "bongani@example.co.za",
      B_LINE_PASSWORD,
      B_PAID_REF,
      B_PENDING_REF,
      B_REQUEST_TITLE,
      B_INVOICE,
      B_CREDIT_NOTE,
    ];
    for (const entry of matrix) {
      const response = await entry.send();
      expect(entry.expect, `${entry.route}: ${response.body}`).toContain(response.statusCode);
      for (const secret of secrets) expect(response.body, `${entry.route} leaked ${secret}`).not.toContain(secret);
      if (entry.route === "POST /api/client/login") cookieA = cookieFrom(response, "sd_client");
    }

    expect(await snapshot()).toEqual(before);
    // A's "Status updates" went on for A alone.
    expect(await t.app.db.select().from(statusSubscribers).where(eq(statusSubscribers.client_id, ayesha.id))).toHaveLength(1);
    // What A sent changed only A: the name, never the status, package, dates or line.
    const [a] = await t.app.db.select().from(clients).where(eq(clients.id, ayesha.id));
    expect(a).toMatchObject({
      full_name: "Ayesha P. Patel",
      package_id: pkg["3 Months"],
      line_password: "a-line-pass-123",
      username: "ayesha.p",
    });
    expect(a.subscription_end?.getFullYear()).not.toBe(2099);
    // The renewal and the content request belong to A.
    const renewals = await t.app.db
      .select()
      .from(capturedPayments)
      .where(
        and(
          eq(capturedPayments.package_name, "Month to Month"),
          eq(capturedPayments.status, "pending"),
          eq(capturedPayments.provider, "sandbox"),
        ),
      );
    expect(renewals.map((p) => p.client_id)).toEqual([ayesha.id]);
    const films = await t.app.db.select().from(contentRequests).where(eq(contentRequests.title, "A's film"));
    expect(films.map((r) => r.client_id)).toEqual([ayesha.id]);
    // B is still signed in and sees their own things.
    const bMe = await call("GET", "/api/client/me", cookieB);
    expect(bMe.json().data).toMatchObject({ id: bongani.id, line: { password: B_LINE_PASSWORD } });
    const bRequests = await call("GET", "/api/client/content-requests", cookieB);
    expect(bRequests.json().data.map((r: { title: string }) => r.title)).toEqual([B_REQUEST_TITLE]);
    ayesha.password = newPassword;
    cookieA = await signIn(t.app, ayesha);
  });
});

describe("GET/PATCH /api/client/me", () => {
  it("answers the profile with the computed subscription and the line details, never the hash", async () => {
    const response = await call("GET", "/api/client/me", cookieA);
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const me = response.json().data;
    expect(me).toMatchObject({
      id: ayesha.id,
      username: "ayesha.p",
      email: "ayesha@example.co.za",
      status: "active",
      device: "firestick",
      device_label: "Amazon Fire Stick",
      subscription: { status: "active", package: "3 Months", package_id: pkg["3 Months"], days_left: 30 },
      line: { username: "ayesha_line", password: "a-line-pass-123", portal_url: "http://line.example.test:8080" },
    });
    expect(response.body).not.toContain("password_hash");
    expect(response.body).not.toContain("scrypt$");
  });

  it("calls a paid term ending within 7 days 'expiring', and shows the lifecycle's grace and expired as they are", async () => {
    const soon = new Date(Date.now() + 3 * DAY - 60_000);
    await t.app.db.update(clients).set({ subscription_end: soon }).where(eq(clients.id, ayesha.id));
    expect((await call("GET", "/api/client/me", cookieA)).json().data.subscription).toMatchObject({ status: "expiring", days_left: 3 });
    // The lifecycle job moves an ended term on; the portal shows what it set.
    for (const status of ["grace", "expired"]) {
      await t.app.db
        .update(clients)
        .set({ status, subscription_end: new Date(Date.now() - DAY) })
        .where(eq(clients.id, ayesha.id));
      expect((await call("GET", "/api/client/me", cookieA)).json().data.subscription).toMatchObject({ status, days_left: 0 });
    }
    await t.app.db
      .update(clients)
      .set({ status: "active", subscription_end: new Date(Date.now() + 30 * DAY) })
      .where(eq(clients.id, ayesha.id));
  });

  it("records when marketing consent was given, keeps it on repeat, clears it on opt-out", async () => {
    const optIn = await call("PATCH", "/api/client/me", cookieA, { marketing_opt_in: true });
    expect(optIn.statusCode).toBe(200);
    const at = optIn.json().data.marketing_opt_in_at;
    expect(Date.now() - Date.parse(at)).toBeLessThan(10_000);
    const again = await call("PATCH", "/api/client/me", cookieA, { marketing_opt_in: true, full_name: "Ayesha Patel" });
    expect(again.json().data.marketing_opt_in_at).toBe(at);
    const out = await call("PATCH", "/api/client/me", cookieA, { marketing_opt_in: false });
    expect(out.json().data).toMatchObject({ marketing_opt_in: false, marketing_opt_in_at: null });
  });

  it("validates contact details beside their fields, and needs the chosen channel's contact", async () => {
    const bad = await call("PATCH", "/api/client/me", cookieA, { email: "not-an-email", whatsapp: "12", full_name: "" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({
      email: "Please enter a valid email address",
      whatsapp: "Please enter a valid WhatsApp number",
      full_name: "Please enter your full name",
    });
    const noNumber = await call("PATCH", "/api/client/me", cookieA, { whatsapp: "", communication_method: "whatsapp" });
    expect(noNumber.statusCode).toBe(400);
    expect(noNumber.json().error.fields).toEqual({ whatsapp: "Please enter your WhatsApp number" });
    const switched = await call("PATCH", "/api/client/me", cookieA, { communication_method: "email", whatsapp: "" });
    expect(switched.statusCode).toBe(200);
    expect(switched.json().data).toMatchObject({ communication_method: "email", whatsapp: "" });
    // Putting a number back is a change like any other: it needs the code (contact-change.test.ts).
    const back = await call("PATCH", "/api/client/me", cookieA, { communication_method: "whatsapp", whatsapp: "0831112222" });
    expect(back.statusCode).toBe(400);
    expect(back.json().error.fields).toEqual({ whatsapp: "To change your WhatsApp number, confirm the new number with a code" });
    await t.app.db.update(clients).set({ whatsapp: "0831112222", communication_method: "whatsapp" }).where(eq(clients.id, ayesha.id));
  });
});

describe("payments and receipts", () => {
  it("lists only their payments, newest first, as receipt view models", async () => {
    const response = await call("GET", "/api/client/payments", cookieA);
    const list = response.json().data as { reference: string; created_at: string; status: string; has_receipt: boolean }[];
    expect(list.length).toBeGreaterThanOrEqual(2);
    const dates = list.map((p) => Date.parse(p.created_at));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expect(list.find((p) => p.reference === A_PAID_REF)).toMatchObject({
      amount: 1450,
      currency: "ZAR",
      package: "3 Months",
      status: "paid",
      provider: "ikhokha",
      method: "Card",
      has_receipt: true,
    });
    expect(list.find((p) => p.status === "failed")?.has_receipt).toBe(false);
  });

  it("gives the receipt of their paid payment, and 404 for an unpaid one or someone else's", async () => {
    const receipt = await call("GET", `/api/client/payments/${A_PAID_REF}/receipt`, cookieA);
    expect(receipt.statusCode).toBe(200);
    expect(receipt.json().data).toMatchObject({
      reference: A_PAID_REF,
      amount: 1450,
      package: "3 Months",
      status: "paid",
      client: { full_name: "Ayesha Patel", username: "ayesha.p" },
      business: { name: "StreamDesk", email: "support@streamdesk.co.za" },
    });
    expect((await call("GET", "/api/client/payments/STRMDSK_1700000000002_ayeshafail0/receipt", cookieA)).statusCode).toBe(404);
    expect((await call("GET", `/api/client/payments/${B_PAID_REF}/receipt`, cookieA)).statusCode).toBe(404);
    expect((await call("GET", `/api/client/payments/${B_PAID_REF}/receipt`, cookieB)).statusCode).toBe(200);
    expect((await call("GET", "/api/client/payments/bad%20ref/receipt", cookieA)).statusCode).toBe(400);
  });
});

describe("POST /api/client/renew", () => {
  it("card: their package through the sandbox checkout extends THEIR subscription and lists the payment as paid", async () => {
    const [before] = await t.app.db.select().from(clients).where(eq(clients.id, ayesha.id));
    const renew = await call("POST", "/api/client/renew", cookieA, { method: "card", clientId: bongani.id });
    expect(renew.statusCode, renew.body).toBe(201);
    const { paylinkUrl, externalTransactionID, method } = renew.json();
    expect(method).toBe("card");
    expect(paylinkUrl).toBe(`${PUBLIC_URL}/api/payments/sandbox/checkout/${externalTransactionID}`);

    const page = await t.app.inject({ method: "GET", url: new URL(paylinkUrl).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("R1,450"); // 3 Months on special
    const pay = await t.app.inject({
      method: "POST",
      url: `${new URL(paylinkUrl).pathname}/pay`,
      headers: { origin: PUBLIC_URL, "content-type": "application/x-www-form-urlencoded" },
      payload: "",
    });
    expect(pay.statusCode).toBe(303);
    expect(pay.headers.location).toBe(`/payment/success?ref=${externalTransactionID}`);

    const [after] = await t.app.db.select().from(clients).where(eq(clients.id, ayesha.id));
    expect(after.subscription_end?.getTime()).toBe(addMonths(before.subscription_end as Date, 3).getTime());
    const payments = (await call("GET", "/api/client/payments", cookieA)).json().data as {
      reference: string;
      status: string;
      amount: number;
    }[];
    expect(payments[0]).toMatchObject({ reference: externalTransactionID, status: "paid", amount: 1450 });
    const receipt = await call("GET", `/api/client/payments/${externalTransactionID}/receipt`, cookieA);
    expect(receipt.statusCode).toBe(200);
    const [bAfter] = await t.app.db.select().from(clients).where(eq(clients.id, bongani.id));
    expect(bAfter.subscription_end?.getTime()).toBeLessThan(Date.now() + 11 * DAY);
  });

  it("card: another active package when chosen; an unknown package is a 400 on packageId", async () => {
    const renew = await call("POST", "/api/client/renew", cookieA, { method: "card", packageId: pkg["6 Months"] });
    expect(renew.statusCode).toBe(201);
    const [row] = await t.app.db
      .select()
      .from(capturedPayments)
      .where(eq(capturedPayments.external_transaction_id, renew.json().externalTransactionID));
    expect(row).toMatchObject({ client_id: ayesha.id, package_name: "6 Months", status: "pending" });
    const unknown = await call("POST", "/api/client/renew", cookieA, { method: "card", packageId: "00000000-0000-4000-8000-000000000000" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields.packageId).toBe("That package is not available. Please choose another package.");
  });

  it("eft: a reference with bank details, recorded as pending on their account", async () => {
    const renew = await call("POST", "/api/client/renew", cookieA, { method: "eft", client_id: bongani.id });
    expect(renew.statusCode, renew.body).toBe(201);
    const body = renew.json();
    expect(body).toMatchObject({ success: true, method: "eft", amount: 1450, package_name: "3 Months" });
    expect(body.bank).toHaveProperty("account_number");
    const [row] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, body.reference));
    expect(row).toMatchObject({ provider: "eft", status: "pending", client_id: ayesha.id, amount: 1450 });
  });

  it("validates the method and needs a package when the client has none", async () => {
    const bad = await call("POST", "/api/client/renew", cookieA, { method: "bitcoin" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ method: "Choose card or EFT" });
    const lindiwe = await makeClient(t.app, { username: "lindiwe.no.package" });
    const cookie = await signIn(t.app, lindiwe);
    const none = await call("POST", "/api/client/renew", cookie, { method: "card" });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.fields).toEqual({ packageId: "Please choose a package" });
  });
});

describe("specials, notices and apps", () => {
  it("shows active specials and what they would pay for each package, their own marked", async () => {
    const response = await call("GET", "/api/client/specials", cookieA);
    const { specials, plans } = response.json().data;
    expect(specials.map((s: { package_name: string }) => s.package_name)).toContain("3 Months");
    expect(plans.some((p: { period: string }) => p.period === "Free Trial")).toBe(false);
    expect(plans.find((p: { packageName: string }) => p.packageName === "3 Months")).toMatchObject({
      price: 1450,
      originalPrice: 1650,
      hasSpecial: true,
      note: "Save R200",
      isCurrent: true,
      packageId: pkg["3 Months"],
    });
    expect(plans.find((p: { packageName: string }) => p.packageName === "Month to Month")).toMatchObject({ price: 650, isCurrent: false });
  });

  it("lists notices for clients and everyone (not public-only), open incidents and troubled components", async () => {
    await t.app.db.insert(notices).values([
      { title: "Clients: new sports channels", audience: "clients" },
      { title: "Everyone: maintenance Sunday", audience: "all" },
      { title: "Public only: visit our shop", audience: "public" },
      { title: "Clients: hidden", audience: "clients", is_active: false },
      { title: "Clients: not yet", audience: "clients", starts_at: new Date(Date.now() + DAY) },
    ]);
    await t.app.db.insert(incidents).values([
      { title: "Some channels buffering", component_keys: ["streaming"] },
      { title: "Old outage", status: "resolved", resolved_at: new Date(Date.now() - DAY) },
    ]);
    await t.app.db.update(systemComponents).set({ maintenance: true, message: "Upgrading" }).where(eq(systemComponents.key, "payments"));
    const body = await eventually(async () => {
      const response = (await call("GET", "/api/client/notices", cookieA)).json();
      expect(response.data.length).toBe(2);
      expect(response.components.length).toBeGreaterThan(0);
      return response;
    });
    expect(body.data.map((n: { title: string }) => n.title).sort()).toEqual([
      "Clients: new sports channels",
      "Everyone: maintenance Sunday",
    ]);
    expect(body.incidents.map((i: { title: string }) => i.title)).toEqual(["Some channels buffering"]);
    expect(body.components).toContainEqual({ key: "payments", name: "Payments", status: "maintenance", message: "Upgrading" });
  });

  it("lists the apps for their device first, with install steps", async () => {
    const response = await call("GET", "/api/client/apps", cookieA);
    const apps = response.json().data as { name: string; for_your_device: boolean; steps: string[]; device_compatibility: string[] }[];
    expect(apps.length).toBe(3);
    const firstOther = apps.findIndex((a) => !a.for_your_device);
    expect(apps.slice(0, firstOther).every((a) => a.device_compatibility.includes("firestick"))).toBe(true);
    expect(apps.slice(firstOther).every((a) => !a.device_compatibility.includes("firestick"))).toBe(true);
    expect(apps[0].for_your_device).toBe(true);
    expect(apps[0].steps.length).toBeGreaterThan(1);
    expect(apps[0].steps[0]).not.toMatch(/^\d+[.)]/);
  });
});

describe("content requests", () => {
  it("creates and lists their own requests, newest first, with the shared validation", async () => {
    const created = await call("POST", "/api/client/content-requests", cookieA, {
      request_type: "series",
      title: "Shaka iLembe S2",
      details: "Please!",
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ request_type: "series", title: "Shaka iLembe S2", status: "new", reply: "" });
    const list = (await call("GET", "/api/client/content-requests", cookieA)).json().data as { title: string }[];
    expect(list[0].title).toBe("Shaka iLembe S2");
    expect(list.map((r) => r.title)).not.toContain(B_REQUEST_TITLE);
    const bad = await call("POST", "/api/client/content-requests", cookieA, { request_type: "podcast", title: "" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ request_type: "Choose channel, film, series or other", title: "Please enter a title" });
  });
});

describe("a suspended client", () => {
  it("signs in to a page that says so: the session answers, everything else is 403, and renewing is a 409", async () => {
    const thandi = await makeClient(t.app, {
      username: "thandi.s",
      status: "suspended",
      package_id: pkg["Month to Month"],
      package_name: "Month to Month",
      subscription_end: new Date(Date.now() + 5 * DAY),
      line_username: "thandi_line",
      line_password: "thandi-secret-pass",
    });
    const cookie = await signIn(t.app, thandi);
    const session = await call("GET", "/api/client/session", cookie);
    expect(session.statusCode).toBe(200);
    expect(session.json().client).toMatchObject({ username: "thandi.s", status: "suspended" });
    for (const [method, url, body] of [
      ["GET", "/api/client/me", undefined],
      ["GET", "/api/client/payments", undefined],
      ["GET", "/api/client/notices", undefined],
      ["GET", "/api/client/specials", undefined],
      ["GET", "/api/client/content-requests", undefined],
      ["POST", "/api/client/content-requests", { request_type: "channel", title: "Anything" }],
      ["PATCH", "/api/client/me", { full_name: "Someone Else" }],
    ] as const) {
      const response = await call(method, url, cookie, body);
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error).toEqual({ code: "suspended", message: "Your account is suspended. Please contact us to sort it out." });
      expect(response.body).not.toContain("thandi-secret-pass");
    }
    // A payment cannot lift a suspension, so none is started: no pay link, no EFT reference.
    const before = (await t.app.db.select().from(capturedPayments)).length;
    for (const method of ["card", "eft"]) {
      const renew = await call("POST", "/api/client/renew", cookie, { method });
      expect(renew.statusCode).toBe(409);
      expect(renew.json().error).toEqual({
        code: "suspended",
        message: "Your account is suspended, so we can't take a payment for it online. Please contact us to sort it out first.",
      });
    }
    expect(await t.app.db.select().from(capturedPayments)).toHaveLength(before);
    // Signing out still works.
    expect((await call("POST", "/api/client/logout", cookie)).statusCode).toBe(200);
  });
});
