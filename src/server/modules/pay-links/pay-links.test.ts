// The one-tap pay link (issue 27 item 4) on PGlite and PostgreSQL: reading it changes nothing;
// a tap starts the portal renewal's payment for the link's client and package, once per cause
// however often it is sent; expired, altered, gone and suspended links are refused with a message.
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPayments, clients, outbox, packages, payLinkStarts, pricingSpecials } from "@/server/db/schema";
import { runReminders } from "@/server/jobs/reminders";
import { makeClient, signIn } from "@/server/modules/client/test-helpers";
import { createPaymentsService } from "@/server/modules/payments/service";
import { type OtherProcess, secondProcess, startTogether } from "@/server/test-support/race";
import { createTestApp, fillBankDetails, onPostgres, type TestApp } from "@/server/testing";
import type { ClientRenewResponse } from "@/shared/client-schemas";
import { addMonths } from "@/shared/dates";
import { PAY_LINK_MESSAGES, type PayLinkView } from "@/shared/pay-link-schemas";
import { loadPayLinks } from "./links";
import { causeKey, startPayment } from "./service";
import { payLinkKey, signPayLink } from "./token";

const PUBLIC_URL = "http://localhost:8080";
const DAY = 86_400_000;
let t: TestApp;
const pkg: Record<string, { id: string; price: number }> = {};
let n = 0;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL, PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 }, { seed: true });
  for (const row of await t.app.db.select().from(packages)) pkg[row.name] = { id: row.id, price: row.price };
});
afterAll(async () => {
  await t?.close();
});

async function trialClient(values: Partial<typeof clients.$inferInsert> = {}) {
  n += 1;
  return makeClient(t.app, {
    username: `paylink-${n}`,
    full_name: `Naledi Mokoena ${n}`,
    email: `naledi.${n}@example.co.za`,
    whatsapp: `2782555${String(n).padStart(4, "0")}`,
    status: "trial",
    subscription_end: new Date(Date.now() + DAY),
    package_id: pkg["3 Months"].id,
    package_name: "3 Months",
    ...values,
  });
}

/** The token of the link a reminder would carry for this client and package. */
async function tokenFor(clientId: string, packageId = pkg["3 Months"].id): Promise<string> {
  const url = (await loadPayLinks(t.app))(clientId, packageId);
  if (!url) throw new Error("no pay link");
  expect(url.startsWith(`${PUBLIC_URL}/pay/`)).toBe(true);
  return url.slice(`${PUBLIC_URL}/pay/`.length);
}

const view = (token: string) => t.app.inject({ method: "GET", url: `/api/pay-links/${token}` });
const pay = (token: string, method = "card", cookie?: string, app = t.app) =>
  app.inject({
    method: "POST",
    url: `/api/pay-links/${token}/pay`,
    payload: { method },
    headers: { origin: PUBLIC_URL, ...(cookie ? { cookie } : {}) },
  });
const paymentsOf = (clientId: string) => t.app.db.select().from(capturedPayments).where(eq(capturedPayments.client_id, clientId));

describe("GET /api/pay-links/:token", () => {
  it("a lapsed line's link says the paid months count from the day paid, not from the old end", async () => {
    const lapsed = await trialClient({ status: "expired", subscription_end: new Date(Date.now() - 5 * DAY) });
    const data: PayLinkView = (await view(await tokenFor(lapsed.id))).json().data;
    expect(data.term.running).toBe(false);
    const fromNow = addMonths(new Date(), 3).getTime();
    expect(Math.abs(new Date(data.term.newEnd).getTime() - fromNow)).toBeLessThan(60_000);
  });

  it("says what the page shows (first name only, today's special price, the ways to pay) and writes nothing", async () => {
    const client = await trialClient();
    const [{ subscription_end: end }] = await t.app.db.select().from(clients).where(eq(clients.id, client.id));
    if (!end) throw new Error("no term");
    const token = await tokenFor(client.id);
    const countRows = async () => ({
      payments: (await t.app.db.select({ n: count() }).from(capturedPayments))[0].n,
      starts: (await t.app.db.select({ n: count() }).from(payLinkStarts))[0].n,
      outbox: (await t.app.db.select({ n: count() }).from(outbox))[0].n,
    });
    const before = await countRows();

    const res = await view(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const data: PayLinkView = res.json().data;
    const methods = (await t.app.inject({ method: "GET", url: "/api/payments/methods" })).json().data;
    // the seed's 3 Months special: R1,650 for R1,450
    expect(data).toEqual({
      business: "StreamDesk",
      firstName: "Naledi",
      packageName: "3 Months",
      price: 1450,
      listPrice: 1650,
      methods,
      expiresAt: expect.any(String),
      // a trial still running: the 3 months are added to its end
      term: {
        running: true,
        endsAt: end.toISOString(),
        newEnd: addMonths(end, 3).toISOString(),
      },
    });
    expect(methods.card).toBe("sandbox");
    // nothing personal beyond the first name
    expect(res.body).not.toContain("Mokoena");
    expect(res.body).not.toContain(client.username);
    expect(res.body).not.toContain("naledi.");
    expect(res.body).not.toContain("82555");

    // read again, as link previews do: still nothing written
    expect((await view(token)).statusCode).toBe(200);
    expect(await countRows()).toEqual(before);
    expect(await paymentsOf(client.id)).toEqual([]);
  });

  it("prices the package as the payment will, without a special when none applies", async () => {
    const client = await trialClient({ package_id: pkg["Month to Month"].id, package_name: "Month to Month" });
    const data: PayLinkView = (await view(await tokenFor(client.id, pkg["Month to Month"].id))).json().data;
    expect(data).toMatchObject({ packageName: "Month to Month", price: 650, listPrice: null });
    const special = await t.app.db
      .insert(pricingSpecials)
      .values({ package_name: "Month to Month", original_price: 650, special_price: 600, title: "Test" })
      .returning({ id: pricingSpecials.id });
    t.app.cache.clear();
    try {
      const token = await tokenFor(client.id, pkg["Month to Month"].id);
      expect((await view(token)).json().data).toMatchObject({ price: 600, listPrice: 650 });
      const started = await pay(token);
      expect(started.statusCode, started.body).toBe(201);
      const [row] = await paymentsOf(client.id);
      expect(row).toMatchObject({ amount: 600, package_id: pkg["Month to Month"].id, status: "pending" });
    } finally {
      await t.app.db.delete(pricingSpecials).where(eq(pricingSpecials.id, special[0].id));
      t.app.cache.clear();
    }
  });

  it("refuses an altered or made-up link (400), an expired one (410), with the page's words", async () => {
    const client = await trialClient();
    const token = await tokenFor(client.id);
    const altered = `${token.slice(0, 10)}${token[10] === "A" ? "B" : "A"}${token.slice(11)}`;
    for (const bad of [altered, "not-a-pay-link", "x".repeat(71)]) {
      const res = await view(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().error.message).toBe(PAY_LINK_MESSAGES.invalid);
    }
    const expired = signPayLink(await payLinkKey(t.app.db), {
      clientId: client.id,
      packageId: pkg["3 Months"].id,
      expiresAt: new Date(Date.now() - 1000),
    });
    const res = await view(expired);
    expect(res.statusCode).toBe(410);
    expect(res.json().error.message).toBe(PAY_LINK_MESSAGES.expired);
  });

  it("answers 410 for a client deleted or merged away, and for a package no longer on sale", async () => {
    const deleted = await trialClient();
    const deletedToken = await tokenFor(deleted.id);
    await t.app.db.delete(clients).where(eq(clients.id, deleted.id));
    for (const res of [await view(deletedToken), await pay(deletedToken)]) {
      expect(res.statusCode).toBe(410);
      expect(res.json().error.message).toBe(PAY_LINK_MESSAGES.gone);
    }

    const kept = await trialClient();
    const merged = await trialClient();
    const mergedToken = await tokenFor(merged.id);
    await t.app.db.update(clients).set({ merged_into: kept.id }).where(eq(clients.id, merged.id));
    expect((await view(mergedToken)).statusCode).toBe(410);
    expect((await pay(mergedToken)).statusCode).toBe(410);
    expect(await paymentsOf(merged.id)).toEqual([]);

    const client = await trialClient({ package_id: pkg["24 Months"].id, package_name: "24 Months" });
    const token = await tokenFor(client.id, pkg["24 Months"].id);
    await t.app.db.update(packages).set({ is_active: false }).where(eq(packages.id, pkg["24 Months"].id));
    try {
      for (const res of [await view(token), await pay(token)]) {
        expect(res.statusCode).toBe(410);
        expect(res.json().error.message).toBe(PAY_LINK_MESSAGES.packageGone);
      }
      expect(await paymentsOf(client.id)).toEqual([]);
    } finally {
      await t.app.db.update(packages).set({ is_active: true }).where(eq(packages.id, pkg["24 Months"].id));
    }
  });
});

describe("POST /api/pay-links/:token/pay", () => {
  it("starts the renewal's card payment for the link's client and package, and sends the browser to the checkout", async () => {
    const client = await trialClient();
    const res = await pay(await tokenFor(client.id));
    expect(res.statusCode, res.body).toBe(201);
    const answer: ClientRenewResponse = res.json();
    expect(answer).toMatchObject({ success: true, method: "card" });
    if (answer.method === "eft") throw new Error("card expected");
    expect(answer.paylinkUrl).toContain(`/api/payments/sandbox/checkout/${answer.externalTransactionID}`);
    const rows = await paymentsOf(client.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      external_transaction_id: answer.externalTransactionID,
      provider: "sandbox",
      status: "pending",
      amount: 1450,
      package_id: pkg["3 Months"].id,
      client_id: client.id,
      lead_id: null,
    });
  });

  it("two taps sent together (taking turns on PGlite's one connection; the race is under PostgreSQL below) start one payment, and a retry later answers the same one while it is pending", async () => {
    const client = await trialClient();
    const token = await tokenFor(client.id);
    const [a, b] = await Promise.all([pay(token), pay(token)]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([201, 201]);
    expect(b.json().externalTransactionID).toBe(a.json().externalTransactionID);
    const retry = await pay(token);
    expect(retry.json().externalTransactionID).toBe(a.json().externalTransactionID);
    expect(await paymentsOf(client.id)).toHaveLength(1);

    // once that payment failed, the next tap starts a new one
    await t.app.db
      .update(capturedPayments)
      .set({ status: "failed" })
      .where(eq(capturedPayments.external_transaction_id, a.json().externalTransactionID));
    const again = await pay(token);
    expect(again.statusCode).toBe(201);
    expect(again.json().externalTransactionID).not.toBe(a.json().externalTransactionID);
    expect(await paymentsOf(client.id)).toHaveLength(2);
  });

  it("three claims through startPayment, the route's checks left out (the database claim alone), start one payment", async () => {
    const client = await trialClient();
    const [row] = await t.app.db.select().from(clients).where(eq(clients.id, client.id));
    const payments = createPaymentsService(t.app);
    const key = causeKey(client.id, pkg["3 Months"].id, "card");
    const [a, b, c] = await Promise.all(
      [1, 2, 3].map(() => startPayment(t.app, payments, key, row, pkg["3 Months"].id, { method: "card" }, "10.9.9.9")),
    );
    if (a.method === "eft" || b.method === "eft" || c.method === "eft") throw new Error("card expected");
    expect(new Set([a.externalTransactionID, b.externalTransactionID, c.externalTransactionID]).size).toBe(1);
    expect(await paymentsOf(client.id)).toHaveLength(1);
    const [start] = await t.app.db.select().from(payLinkStarts).where(eq(payLinkStarts.key, key));
    expect(start).toMatchObject({ state: "ready", payment_ref: a.externalTransactionID, client_id: client.id });
  });

  it("EFT: two taps sent together (taking turns on PGlite's one connection) give one reference, with the bank details", async () => {
    await fillBankDetails(t.app);
    const client = await trialClient();
    const token = await tokenFor(client.id);
    const [a, b] = await Promise.all([pay(token, "eft"), pay(token, "eft")]);
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([201, 201]);
    expect(a.json()).toMatchObject({ method: "eft", amount: 1450, package_name: "3 Months", bank: { bank_name: "FNB" } });
    expect(b.json().reference).toBe(a.json().reference);
    const rows = await paymentsOf(client.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider: "eft", status: "pending", external_transaction_id: a.json().reference });
  });

  describe.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): starts on two processes at the same moment",
    () => {
      let other: OtherProcess;
      beforeAll(async () => {
        other = await secondProcess(t);
      });
      afterAll(async () => {
        await other?.close();
      });
      // The route shares a start among taps in one process (a map in the module), and this test's two
      // apps share that module: each process's taps are therefore startPayment itself, the claim on
      // the database the only thing between two real processes.
      /** Two starts a process, each claim waiting behind the lock on pay_link_starts, then let go together. */
      const race = async (method: "card" | "eft") => {
        const client = await trialClient();
        const [row] = await t.app.db.select().from(clients).where(eq(clients.id, client.id));
        const key = causeKey(client.id, pkg["3 Months"].id, method);
        const start = (app: TestApp["app"]) => {
          const payments = createPaymentsService(app);
          return () => startPayment(app, payments, key, row, pkg["3 Months"].id, { method }, "10.9.9.9");
        };
        const sides = await startTogether(t.database.url as string, "LOCK TABLE pay_link_starts IN EXCLUSIVE MODE", 4, () =>
          Promise.all([t.app, other.app].map(start).map((go) => Promise.all([go(), go()]))),
        );
        for (const side of sides) expect(side).toHaveLength(2);
        return { client, key, answers: sides.flat() };
      };

      it("card: every start on both processes answers the one payment started", async () => {
        const { client, key, answers } = await race("card");
        const refs = answers.map((a) => (a.method === "eft" ? a.reference : a.externalTransactionID));
        expect(new Set(refs).size).toBe(1);
        const rows = await paymentsOf(client.id);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ external_transaction_id: refs[0], provider: "sandbox", status: "pending", amount: 1450 });
        const [start] = await t.app.db.select().from(payLinkStarts).where(eq(payLinkStarts.key, key));
        expect(start).toMatchObject({ state: "ready", payment_ref: refs[0], client_id: client.id });
      });

      it("EFT: every start on both processes gets the one reference, with the bank details", async () => {
        await fillBankDetails(t.app);
        other.app.cache.clear();
        const { client, answers } = await race("eft");
        for (const a of answers)
          expect(a).toMatchObject({ method: "eft", amount: 1450, package_name: "3 Months", bank: { bank_name: "FNB" } });
        const refs = answers.map((a) => (a.method === "eft" ? a.reference : a.externalTransactionID));
        expect(new Set(refs).size).toBe(1);
        const rows = await paymentsOf(client.id);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ provider: "eft", status: "pending", external_transaction_id: refs[0] });
      });
    },
  );

  it("pays for the link's client only: another client's session sent along changes nothing", async () => {
    const owner = await trialClient();
    const other = await trialClient({ status: "active" });
    const res = await pay(await tokenFor(owner.id), "card", await signIn(t.app, other));
    expect(res.statusCode, res.body).toBe(201);
    expect(await paymentsOf(owner.id)).toHaveLength(1);
    expect(await paymentsOf(other.id)).toEqual([]);
  });

  it("refuses an expired link (410) and a suspended client (409) before any payment, and a method that is not offered (400)", async () => {
    const client = await trialClient();
    const expired = signPayLink(await payLinkKey(t.app.db), {
      clientId: client.id,
      packageId: pkg["3 Months"].id,
      expiresAt: new Date(Date.now() - 1000),
    });
    const gone = await pay(expired);
    expect(gone.statusCode).toBe(410);
    expect(gone.json().error.message).toBe(PAY_LINK_MESSAGES.expired);

    const bad = await pay(await tokenFor(client.id), "cash");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual({ method: PAY_LINK_MESSAGES.method });

    const suspended = await trialClient({ status: "suspended" });
    const refused = await pay(await tokenFor(suspended.id));
    expect(refused.statusCode).toBe(409);
    expect((await view(await tokenFor(suspended.id))).statusCode).toBe(409);
    expect(await paymentsOf(client.id)).toEqual([]);
    expect(await paymentsOf(suspended.id)).toEqual([]);
    expect(
      await t.app.db
        .select()
        .from(payLinkStarts)
        .where(and(eq(payLinkStarts.client_id, client.id))),
    ).toEqual([]);
  });
});

describe("renewal reminders", () => {
  it("carry the one-tap pay link for a paid client's package, and the portal's link when the package is no longer sold", async () => {
    const now = new Date();
    const paid = await trialClient({
      status: "active",
      subscription_end: new Date(now.getTime() + 6 * DAY),
      communication_method: "email",
    });
    const unsold = await trialClient({
      status: "active",
      subscription_end: new Date(now.getTime() + 6 * DAY),
      communication_method: "email",
      package_id: pkg["24 Months"].id,
      package_name: "24 Months",
    });
    await t.app.db.update(packages).set({ is_active: false }).where(eq(packages.id, pkg["24 Months"].id));
    try {
      await runReminders(t.app, now);
    } finally {
      await t.app.db.update(packages).set({ is_active: true }).where(eq(packages.id, pkg["24 Months"].id));
    }
    const reminderOf = async (clientId: string) =>
      (
        await t.app.db
          .select()
          .from(outbox)
          .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "reminder-7d")))
      )[0];

    const week = await reminderOf(paid.id);
    const token = /\/pay\/([A-Za-z0-9_-]{71})/.exec(week.body)?.[1];
    expect(week.body).toContain(`Renew before then to keep watching without a break: ${PUBLIC_URL}/pay/${token}`);
    const view = await t.app.inject({ method: "GET", url: `/api/pay-links/${token}` });
    expect(view.json().data).toMatchObject({ packageName: "3 Months", price: 1450 });

    expect((await reminderOf(unsold.id)).body).toContain(
      `Renew before then to keep watching without a break: ${PUBLIC_URL}/client?renew=1`,
    );
  });
});
