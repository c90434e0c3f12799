// Issue 48 item 1: every notice and alert for the owner goes to the alerts e-mail — the alert
// address they set, else the first admin's own address — and never to the support address
// (the seed's support@streamdesk.co.za, on a domain the owner does not own). Each test reads the
// outbox row the cause queued and its recipient; the last reads that nothing went to support.
import { eq, inArray, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admins, capturedPayments, outbox, packages, provisioningJobs, siteSettings } from "@/server/db/schema";
import { runOwnerDigest } from "@/server/jobs/owner-digest";
import { createAdmin } from "@/server/modules/admin-auth/test-helpers";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { makeClient, nextIp } from "@/server/modules/client/test-helpers";
import { paidOrder } from "@/server/modules/orders/test-helpers";
import { createTestApp, fillBankDetails, type TestApp } from "@/server/testing";
import { OWNER_ALERT_MESSAGES, OWNER_ALERT_SETTINGS } from "@/shared/owner-alerts";
import { alertsEmail } from "./owner-alerts";

const PUBLIC_URL = "http://localhost:8080";
/** The seed's support address (seed-content.ts): shown to customers, not the owner's inbox. */
const SUPPORT_EMAIL = "support@streamdesk.co.za";
const FIRST_ADMIN = "first.owner@example.co.za";
const ALERTS = "thandi.alerts@example.co.za";

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL, SANDBOX_SECRET: "sandbox-test-secret", PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 }, { seed: true });
  // The first admin, then another a day later (signed in): the default is the earliest one's address.
  const first = await createAdmin(t.app, FIRST_ADMIN);
  admin = await signInAdmin(t.app);
  await t.app.db
    .update(admins)
    .set({ created_at: sql`${first.created_at}::timestamptz + interval '1 day'` })
    .where(eq(admins.email, admin.email));
});
afterAll(async () => {
  await t?.close();
});

const saveAlertsEmail = (value: string) =>
  admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: OWNER_ALERT_SETTINGS.email, value } });
const storedAlertsEmail = async () =>
  (await t.app.db.select().from(siteSettings).where(eq(siteSettings.key, OWNER_ALERT_SETTINGS.email)))[0]?.value;
const rowByKey = async (key: string) => (await t.app.db.select().from(outbox).where(eq(outbox.dedupe_key, key)))[0];

/** A visitor pays for 3 Months on the sandbox checkout; answers the payment row. */
async function visitorPays(name: string, whatsapp: string) {
  const [pkg] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "3 Months"));
  const link = await t.app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: { packageId: pkg.id, immediateStartConsent: true, name, whatsapp },
    headers: { origin: PUBLIC_URL },
    remoteAddress: nextIp(),
  });
  expect(link.statusCode, link.body).toBe(201);
  const ref = link.json().externalTransactionID as string;
  await t.app.inject({
    method: "POST",
    url: `/api/payments/sandbox/checkout/${ref}/pay`,
    headers: { origin: PUBLIC_URL, "content-type": "application/x-www-form-urlencoded" },
    payload: "",
  });
  const [payment] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, ref));
  expect(payment.status).toBe("paid");
  return payment;
}

describe("the alerts e-mail", () => {
  it("is the first admin's own address while none is set, and the settings card is told so", async () => {
    expect(await storedAlertsEmail()).toBeUndefined();
    expect(await alertsEmail(t.app.db)).toBe(FIRST_ADMIN);
    const view = await admin.call({ method: "GET", url: "/api/admin/alerts-email" });
    expect(view.statusCode, view.body).toBe(200);
    expect(view.json().data).toEqual({ email: FIRST_ADMIN, first_admin: FIRST_ADMIN });

    const payment = await visitorPays("Sipho Default", "082 555 2001");
    expect(await rowByKey(`payment-received:${payment.id}`)).toMatchObject({ channel: "email", recipient: FIRST_ADMIN });
  });

  it("that is not an address is a 400 on value, and nothing is saved", async () => {
    for (const value of ["owner@", "not an address", "owner@example"]) {
      const res = await saveAlertsEmail(value);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({ value: OWNER_ALERT_MESSAGES.email });
      expect(await storedAlertsEmail()).toBeUndefined();
    }
    expect(await alertsEmail(t.app.db)).toBe(FIRST_ADMIN);
  });

  it("once set, receives each owner notice and alert: payment, order, trial request, interest, EFT order, panel failure, digest", async () => {
    expect((await saveAlertsEmail(ALERTS)).statusCode).toBe(201);
    expect(await storedAlertsEmail()).toBe(ALERTS);
    const view = await admin.call({ method: "GET", url: "/api/admin/alerts-email" });
    expect(view.json().data).toEqual({ email: ALERTS, first_admin: FIRST_ADMIN });

    // a payment received
    const payment = await visitorPays("Sipho Alerts", "082 555 2002");
    const paid = await rowByKey(`payment-received:${payment.id}`);
    // an order and a free-trial request (the approve mode: the business's note), and an interest form
    const order = await t.app.inject({
      method: "POST",
      url: "/api/orders",
      payload: paidOrder({ name: "Naledi Order", email: "naledi.o@example.co.za", whatsapp: "083 555 2006" }),
    });
    expect(order.statusCode, order.body).toBe(201);
    const trial = await t.app.inject({
      method: "POST",
      url: "/api/orders",
      payload: paidOrder(
        { name: "Lwazi Trial", email: "lwazi.t@example.co.za", whatsapp: "083 555 2003" },
        { formType: "free-trial", duration: "" },
      ),
    });
    expect(trial.statusCode, trial.body).toBe(201);
    const interest = await t.app.inject({
      method: "POST",
      url: "/api/interest",
      payload: {
        firstName: "Lerato",
        lastName: "Interest",
        email: "lerato.i@example.co.za",
        whatsapp: "084 555 2004",
        communicationMethod: "whatsapp",
        packageName: "Month to Month",
        packagePrice: 650,
        duration: "1 Month",
        marketingOptIn: false,
      },
    });
    expect(interest.statusCode, interest.body).toBe(201);
    const leadNotes = await t.app.db
      .select()
      .from(outbox)
      .where(
        inArray(
          outbox.dedupe_key,
          [order.json().id, trial.json().id, interest.json().id].map((id) => `lead:${id}:business`),
        ),
      );
    // a new EFT order to confirm
    await fillBankDetails(t.app);
    const [pkg] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "3 Months"));
    const eft = await t.app.inject({
      method: "POST",
      url: "/api/payments/eft",
      payload: { packageId: pkg.id, name: "Naledi EFT", whatsapp: "082 555 2005", immediateStartConsent: true },
      remoteAddress: nextIp(),
    });
    expect(eft.statusCode, eft.body).toBe(201);
    const [eftPayment] = await t.app.db
      .select()
      .from(capturedPayments)
      .where(eq(capturedPayments.external_transaction_id, eft.json().reference));
    const eftAlert = await rowByKey(`owner-alert:eft-order:${eftPayment.id}`);
    // a panel job that failed (a renewal for a client with no line: the sandbox panel refuses it)
    const client = await makeClient(t.app, { username: "alerts.nol", full_name: "Nomsa Noline", status: "active" });
    const [job] = await t.app.db
      .insert(provisioningJobs)
      .values({ client_id: client.id, action: "extend_line", cause_key: "test:alerts:extend_line", package_name: "3 Months" })
      .returning();
    await t.app.provisioning.drain();
    const panelFailed = await rowByKey(`panel-failed:${job.id}`);
    // the daily digest, switched on, at its hour
    await t.app.db.insert(siteSettings).values({ key: OWNER_ALERT_SETTINGS.digest, value: "on" });
    expect(await runOwnerDigest(t.app, new Date("2031-04-02T08:00:00+02:00"))).toBe(true);
    const [digest] = await t.app.db.select().from(outbox).where(like(outbox.dedupe_key, "owner-alert:digest:%"));

    expect(paid).toMatchObject({ channel: "email", recipient: ALERTS, kind: "payment-received" });
    expect(leadNotes.map((row) => [row.kind, row.recipient]).sort()).toEqual([
      ["interest", ALERTS],
      ["order", ALERTS],
      ["order", ALERTS],
    ]);
    expect(eftAlert).toMatchObject({ channel: "email", recipient: ALERTS, kind: "owner-alert" });
    expect(panelFailed).toMatchObject({ channel: "email", recipient: ALERTS, kind: "owner-alert" });
    expect(digest).toMatchObject({ channel: "email", recipient: ALERTS, kind: "owner-alert" });
  });

  it("none of them went to the support address", async () => {
    const owners = await t.app.db
      .select({ kind: outbox.kind })
      .from(outbox)
      .where(inArray(outbox.kind, ["payment-received", "order", "interest", "owner-alert", "panel-runway"]));
    expect(owners.length).toBeGreaterThanOrEqual(7);
    expect(await t.app.db.select().from(outbox).where(eq(outbox.recipient, SUPPORT_EMAIL))).toEqual([]);
  });
});
