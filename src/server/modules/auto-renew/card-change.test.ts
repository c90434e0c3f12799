// "Use another card" (issue 44 item 5), against the fake PayFast over real HTTP (its checkout, ITNs
// and subscriptions API, each signature checked by the fake): a R0.00 tokenisation checkout whose
// ITN's token replaces the kept one (sealed), the term unchanged and nothing invoiced, the customer
// told once, the old token cancelled at PayFast once (two passes racing), a replay changing nothing,
// and the next renewal charging the new card. PGlite and, with TEST_DATABASE_URL, PostgreSQL.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { FakePayfast } from "@/server/adapters/payments/payfast/fake";
import {
  auditLog,
  autoRenewals,
  autoRenewCardChanges,
  capturedPayments,
  clientLifecycleEvents,
  clients,
  invoices,
  outbox,
  renewalCharges,
} from "@/server/db/schema";
import { clientSession, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { paymentNotificationsSettled } from "@/server/modules/payments/service";
import { openPayfastShop, type PayfastShop, PUBLIC_URL } from "@/server/test-support/payfast-shop";
import type { TestApp } from "@/server/testing";
import { cancelReplacedCards } from "./card-change";
import { runAutoRenewals } from "./renewals";

const DAY = 86_400_000;
const HOUR = 3_600_000;

let shop: PayfastShop;
let fake: FakePayfast;
let t: TestApp;
let threeMonths: PayfastShop["threeMonths"];
let counter = 0;

beforeAll(async () => {
  shop = await openPayfastShop();
  ({ fake, t, threeMonths } = shop);
});
afterAll(async () => {
  await shop?.close();
});

const postHandOff = (url: string) => shop.handOff(url);
const itn = (ref: string) => shop.itn(ref);
const paymentOf = (ref: string) => shop.paymentOf(ref);
const clientOf = (id: string) => shop.clientOf(id);
const renewalOf = async (id: string) => (await t.app.db.select().from(autoRenewals).where(eq(autoRenewals.client_id, id)))[0];
const cancels = (token: string) => fake.apiCalls.filter((c) => c === `PUT /subscriptions/${token}/cancel`).length;

/** A client who paid by PayFast with "Renew automatically" ticked, their card kept, their term ending at `end`. */
async function renewingClient(end: Date) {
  const n = ++counter;
  const response = await t.app.inject({
    method: "POST",
    url: "/api/payments/paylink",
    payload: {
      name: `Card Change ${n}`,
      whatsapp: `0842${String(n).padStart(6, "0")}`,
      email: `card${n}@example.co.za`,
      immediateStartConsent: true,
      method: "payfast",
      packageId: threeMonths.id,
      autoRenew: true,
    },
    remoteAddress: `10.46.0.${n}`,
  });
  expect(response.statusCode, response.body).toBe(201);
  const { paylinkUrl, externalTransactionID: ref } = response.json() as { paylinkUrl: string; externalTransactionID: string };
  await postHandOff(paylinkUrl);
  await itn(ref);
  const clientId = (await paymentOf(ref)).client_id as string;
  await t.app.db.update(clients).set({ subscription_end: end, status: "active" }).where(eq(clients.id, clientId));
  return { clientId, token: fake.payments.get(ref)?.token as string, cookie: (await clientSession(t.app, clientId)).cookie };
}

const useAnotherCard = (cookie: Record<string, string>) =>
  t.app.inject({ method: "POST", url: "/api/client/auto-renew/card", cookies: cookie, headers: { origin: PUBLIC_URL } });

describe("'Use another card'", () => {
  it("a R0.00 tokenisation checkout keeps the new card in place of the old: term unchanged, nothing invoiced, the customer told once, audited; a replay changes nothing", async () => {
    const end = new Date(Date.now() + 20 * DAY);
    const { clientId, token: oldToken, cookie } = await renewingClient(end);
    const view = await t.app.inject({ method: "GET", url: "/api/client/auto-renew", cookies: cookie });
    expect(view.json().data).toMatchObject({ enabled: true, ready: true, canChangeCard: true });
    const eventsBefore = (await t.app.db.select().from(clientLifecycleEvents).where(eq(clientLifecycleEvents.client_id, clientId))).length;

    const started = await useAnotherCard(cookie);
    expect(started.statusCode, started.body).toBe(201);
    const { url, reference } = started.json().data as { url: string; reference: string };
    expect(url).toBe(`${PUBLIC_URL}/api/payments/checkout/${reference}`);
    const pending = await paymentOf(reference);
    expect(pending).toMatchObject({ status: "pending", amount: 0, client_id: clientId, provider: "payfast" });
    expect(pending.auto_renew_consent).toBe((await renewalOf(clientId)).consent_text);

    // PayFast's form: an ad hoc agreement of R0.00 (subscription_type 2), signed (the fake checks it)
    const fields = await postHandOff(url);
    expect(fields).toMatchObject({ amount: "0.00", subscription_type: "2", m_payment_id: reference });
    expect((await itn(reference)).status).toBe(200);
    const newToken = fake.payments.get(reference)?.token as string;
    expect(newToken).toBeTruthy();
    expect(newToken).not.toBe(oldToken);

    const paid = await paymentOf(reference);
    expect(paid.status).toBe("paid");
    // the result page is told it was a card change, kept: it speaks of the card, never of an account or a term
    const status = await t.app.inject({ method: "GET", url: `/api/payments/${reference}` });
    expect(status.json().data).toMatchObject({ status: "paid", card_change: { status: "done" } });
    expect(status.json().data.credit_order).toBeUndefined();
    const renewal = await renewalOf(clientId);
    expect(renewal).toMatchObject({ enabled: true, consent_payment_id: paid.id });
    expect(renewal.token_sealed).toMatch(/^v1\./);
    expect(renewal.token_sealed).not.toContain(newToken);
    // the term is not extended, and a card-saving checkout buys nothing: no lifecycle event, invoice or receipt
    expect((await clientOf(clientId)).subscription_end?.getTime()).toBe(end.getTime());
    expect((await t.app.db.select().from(clientLifecycleEvents).where(eq(clientLifecycleEvents.client_id, clientId))).length).toBe(
      eventsBefore,
    );
    expect(await t.app.db.select().from(invoices).where(eq(invoices.payment_id, paid.id))).toEqual([]);
    expect(
      await t.app.db
        .select()
        .from(outbox)
        .where(eq(outbox.dedupe_key, `receipt:${paid.id}`)),
    ).toEqual([]);
    const told = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "auto-renew-card-changed")));
    // on their channel (WhatsApp), with the outbox's own e-mail copy of it
    const onWhatsApp = told.filter((m) => m.channel === "whatsapp");
    expect(onWhatsApp).toHaveLength(1);
    for (const copy of told.filter((m) => m.channel === "email")) expect(copy.dedupe_key).toBe(`${onWhatsApp[0].dedupe_key}:email-copy`);
    expect(told.length).toBeLessThanOrEqual(2);
    expect(onWhatsApp[0].body).toContain("Your card for automatic renewals is now the new card you gave PayFast.");
    const audited = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource_id, clientId), eq(auditLog.action, "card-changed")));
    expect(audited).toHaveLength(1);
    expect(JSON.stringify(audited)).not.toContain(newToken);

    // the ITN again: nothing changes twice
    const sealedAfter = renewal.token_sealed;
    expect((await itn(reference)).status).toBe(200);
    expect((await renewalOf(clientId)).token_sealed).toBe(sealedAfter);
    const toldAgain = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "auto-renew-card-changed"), eq(outbox.channel, "whatsapp")));
    expect(toldAgain).toHaveLength(1);
    expect(
      await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.resource_id, clientId), eq(auditLog.action, "card-changed"))),
    ).toHaveLength(1);
  });

  it("the old card is cancelled at PayFast once, as soon as the checkout is paid (the change feed); the job's passes after it (two racing) cancel nothing more; the next renewal charges the new card", async () => {
    const end = new Date(Date.now() + 2 * DAY);
    const { clientId, token: oldToken, cookie } = await renewingClient(end);
    const { url, reference } = (await useAnotherCard(cookie)).json().data as { url: string; reference: string };
    await postHandOff(url);
    await itn(reference);
    const newToken = fake.payments.get(reference)?.token as string;

    await vi.waitFor(() => expect(cancels(oldToken)).toBe(1), { timeout: 5000 });
    await Promise.all([cancelReplacedCards(t.app), cancelReplacedCards(t.app)]);
    await cancelReplacedCards(t.app, new Date(Date.now() + HOUR));
    expect(cancels(oldToken)).toBe(1);
    expect(fake.cards.get(oldToken)?.status).toBe("CANCELLED");
    expect(cancels(newToken)).toBe(0);
    expect(fake.cards.get(newToken)?.status).toBe("ACTIVE");
    const [change] = await t.app.db.select().from(autoRenewCardChanges).where(eq(autoRenewCardChanges.client_id, clientId));
    expect(change).toMatchObject({ status: "done", old_token_sealed: null });
    expect(change.cancelled_at).not.toBeNull();

    await runAutoRenewals(t.app, new Date());
    await runAutoRenewals(t.app, new Date(end.getTime() - DAY + HOUR));
    await fake.adhocItnsSent();
    await paymentNotificationsSettled();
    expect(fake.cards.get(newToken)?.charges).toHaveLength(1);
    expect(fake.cards.get(oldToken)?.charges ?? []).toHaveLength(0);
    expect((await clientOf(clientId)).subscription_end?.getTime()).toBeGreaterThan(end.getTime() + 80 * DAY);
  });

  it("a refund of the client's last paid payment still turns automatic renewal off after a card change (the R0.00 checkout bought nothing)", async () => {
    const { clientId, cookie } = await renewingClient(new Date(Date.now() + 20 * DAY));
    const [first] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.client_id, clientId));
    const { url, reference } = (await useAnotherCard(cookie)).json().data as { url: string; reference: string };
    await postHandOff(url);
    await itn(reference);
    expect((await paymentOf(reference)).status).toBe("paid");
    const admin = await signInAdmin(t.app);
    const refunded = await admin.call({
      method: "POST",
      url: `/api/admin/payments/${first.id}/refund`,
      payload: { amount: 10, reason: "Goodwill for a bad evening", term: "keep", by_hand: true },
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect((await renewalOf(clientId)).enabled).toBe(false);
  });

  it("bad input: with automatic renewal off, or never chosen, it is a 409 and no payment is written; signed out, a 401", async () => {
    const { clientId, cookie } = await renewingClient(new Date(Date.now() + 20 * DAY));
    // a renewal charge of the kept card awaiting its answer settles only by that card: no change under it
    const [sent] = await t.app.db
      .insert(renewalCharges)
      .values({ client_id: clientId, term_end: new Date(Date.now() + 20 * DAY), provider: "payfast", amount_cents: 100, status: "sent" })
      .returning();
    const underWay = await useAnotherCard(cookie);
    expect(underWay.statusCode).toBe(409);
    expect(underWay.json().error.code).toBe("renewal_under_way");
    await t.app.db.delete(renewalCharges).where(eq(renewalCharges.id, sent.id));
    const off = await t.app.inject({ method: "DELETE", url: "/api/client/auto-renew", cookies: cookie, headers: { origin: PUBLIC_URL } });
    expect(off.json().data).toMatchObject({ enabled: false, canChangeCard: false });
    const before = (await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.client_id, clientId))).length;
    const refused = await useAnotherCard(cookie);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain("Automatic renewal is off");
    expect((await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.client_id, clientId))).length).toBe(before);
    expect(await t.app.db.select().from(autoRenewCardChanges).where(eq(autoRenewCardChanges.client_id, clientId))).toEqual([]);

    const [other] = await t.app.db.select({ id: clients.id }).from(clients).where(eq(clients.status, "active")).limit(1);
    await t.app.db.delete(autoRenewals).where(eq(autoRenewals.client_id, other.id));
    expect((await useAnotherCard((await clientSession(t.app, other.id)).cookie)).statusCode).toBe(409);
    expect((await t.app.inject({ method: "POST", url: "/api/client/auto-renew/card", headers: { origin: PUBLIC_URL } })).statusCode).toBe(
      401,
    );
  });
});
