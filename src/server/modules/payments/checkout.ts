// Pay links and hosted checkouts: a card pay link (the card provider, or the local test checkout),
// a checkout at a hosted provider, the hand-off page that posts a signed form to one,
// and the test checkout's own page and buttons. Each prices the order (pricing.ts), finds
// the payer (payer.ts) and writes one pending row (insert-payment.ts) before the provider is asked.
import { randomInt } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Checkout, HostedProvider, HostedProviderName } from "@/server/adapters/payments/provider";
import { hostedProviderDefinitions } from "@/server/adapters/payments/registry";
import { TEST_CHECKOUT_PATH, type TestCheckoutOutcome, type TestPaylink, testCheckoutOf } from "@/server/adapters/payments/select-provider";
import { capturedPayments } from "@/server/db/schema";
import { type BusinessProfile, loadBusiness } from "@/server/lib/business";
import { AppError, badRequest, notFound } from "@/server/lib/errors";
import { checkNewLineMac } from "@/server/modules/panel/mac-change";
import { AUTO_RENEW_NOT_OFFERED, autoRenewConsent } from "@/shared/auto-renew";
import { toCents } from "@/shared/money";
import { packageMonths } from "@/shared/pricing";
import { PAYMENT_METHOD_MESSAGE, paylinkRequestSchema } from "@/shared/schemas";
import {
  findPayment,
  type OrderInput,
  type Payer,
  type PayerSession,
  type Payment,
  type PaymentsContext,
  validationError,
} from "./context";
import { insertPayment } from "./insert-payment";
import { handleCallback } from "./intake";
import { resolvePayer } from "./payer";
import { type PricedOrder, priceOrder } from "./pricing";

export interface PaylinkResponse {
  success: true;
  paylinkUrl: string;
  externalTransactionID: string;
}

/** Spec §7: 'a fixed product prefix, underscore, a timestamp and random text'. */
export const TRANSACTION_PREFIX = "STRMDSK";
export const PAYLINK_FAILED_MESSAGE = "Failed to create payment link";
/** Card payments are off: a real shop with no card provider configured (EFT still works). */
export const CARD_OFF_MESSAGE = "Card payments are not available at the moment. Please pay by EFT instead.";

/** Where each hosted provider sends its notifications (the routes in routes.ts). */
export const NOTIFY_PATHS = Object.fromEntries(hostedProviderDefinitions().map((d) => [d.name, d.notificationPath])) as Record<
  HostedProviderName,
  string
>;

export type TestCheckoutAction = "pay" | "decline" | "cancel";
const TEST_OUTCOMES: Record<TestCheckoutAction, TestCheckoutOutcome> = { pay: "SUCCESS", decline: "FAILURE", cancel: "CANCELLED" };
const RESULT_PAGES: Record<string, string> = { SUCCESS: "success", FAILURE: "failure", CANCELLED: "cancel" };

export function makeTransactionId(now = Date.now()): string {
  let random = "";
  for (let i = 0; i < 10; i++) random += randomInt(36).toString(36);
  return `${TRANSACTION_PREFIX}_${now}_${random}`;
}

/** POST /api/payments/paylink. */
export async function createPaylink(
  ctx: PaymentsContext,
  body: unknown,
  session: PayerSession = { clientId: null },
): Promise<PaylinkResponse> {
  const parsed = paylinkRequestSchema.safeParse(body ?? {});
  if (!parsed.success) throw validationError(parsed.error);
  return paylinkFor(ctx, parsed.data, session, body);
}

/** A pay link for a package. `input.immediateStartConsent` is the payer's ECT s44 consent (a renewal from the portal has none). */
export async function paylinkFor(
  ctx: PaymentsContext,
  input: OrderInput,
  session: PayerSession,
  body: unknown = input,
): Promise<PaylinkResponse> {
  if (input.method && input.method !== "card") return checkoutFor(ctx, input.method, input, session, body);
  const { app, db, publicUrl } = ctx;
  const provider = ctx.active.provider;
  // The card pay link keeps no card for us to charge later.
  if (input.autoRenew) throw badRequest(AUTO_RENEW_NOT_OFFERED, { autoRenew: AUTO_RENEW_NOT_OFFERED });
  if (ctx.cardMode === "off") throw new AppError(409, "card_payments_off", CARD_OFF_MESSAGE);
  const order = await priceOrder(ctx, input, session);
  await checkNewLineMac(app, input, session.clientId);
  const payer = await resolvePayer(ctx, input, session, order.pkg.name, body);
  const payment = await newPayment(ctx, provider.name, order, payer, input);
  const ref = payment.external_transaction_id;

  const q = `?ref=${encodeURIComponent(ref)}`;
  try {
    const link = await provider.createPaylink({
      amountCents: order.amountCents,
      currency: "ZAR",
      description: payment.description,
      externalTransactionID: ref,
      urls: {
        callbackUrl: `${publicUrl}/api/payments/webhook/${provider.name}`,
        successPageUrl: `${publicUrl}/payment/success${q}`,
        failurePageUrl: `${publicUrl}/payment/failure${q}`,
        cancelUrl: `${publicUrl}/payment/cancel${q}`,
      },
    });
    await db
      .update(capturedPayments)
      .set({ provider_reference: link.paylinkID, updated_at: new Date() })
      .where(eq(capturedPayments.id, payment.id));
    return { success: true, paylinkUrl: link.paylinkUrl, externalTransactionID: ref };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    app.log.error({ err: error, ref }, "payment provider failed to create a pay link");
    await db
      .update(capturedPayments)
      .set({ status: "failed", notes: `Pay link not created: ${reason}`.slice(0, 2000), updated_at: new Date() })
      .where(eq(capturedPayments.id, payment.id));
    throw new AppError(502, "payment_provider", PAYLINK_FAILED_MESSAGE);
  }
}

/** The pending row of a card or hosted payment, under a new transaction id. */
async function newPayment(ctx: PaymentsContext, provider: string, order: PricedOrder, payer: Payer, input: OrderInput): Promise<Payment> {
  const reference = makeTransactionId();
  // Renewals are charged at the package's own price (no special, no coupon): the sentence says that amount.
  const consent = input.autoRenew ? autoRenewConsent(toCents(order.pkg.price), packageMonths(order.pkg) ?? 1) : null;
  const payment = await insertPayment(ctx.db, { provider, reference, order, payer, input, email: payer.email, autoRenewConsent: consent });
  // A timestamp and ten random characters: taken already is a fault, not a retry.
  if (!payment) throw new Error(`payment reference ${reference} already taken`);
  return payment;
}

function hostedOrRefuse(ctx: PaymentsContext, name: string): HostedProvider {
  const found = ctx.hosted.get(name as HostedProviderName);
  if (!found) throw badRequest(PAYMENT_METHOD_MESSAGE, { method: PAYMENT_METHOD_MESSAGE });
  return found;
}

/** What the provider's checkout is started with, for a payment row (the same every time it is asked). */
function checkoutInput(
  ctx: PaymentsContext,
  payment: Pick<Payment, "external_transaction_id" | "amount" | "description" | "provider" | "client_email" | "auto_renew_consent">,
) {
  const { publicUrl } = ctx;
  const ref = payment.external_transaction_id;
  const q = `?ref=${encodeURIComponent(ref)}`;
  return {
    amountCents: toCents(payment.amount),
    description: payment.description,
    reference: ref,
    ...(payment.client_email ? { email: payment.client_email } : {}),
    saveCard: payment.auto_renew_consent !== null,
    urls: {
      notifyUrl: `${publicUrl}${NOTIFY_PATHS[payment.provider as HostedProviderName]}`,
      successUrl: `${publicUrl}/payment/success${q}`,
      failureUrl: `${publicUrl}/payment/failure${q}`,
      cancelUrl: `${publicUrl}/payment/cancel${q}`,
    },
  };
}

/**
 * A pay link through a hosted provider: the same pricing, payer and pending row as a card pay
 * link, then the provider's checkout. A redirect provider makes a checkout by API and gives its
 * URL; a form-post one takes a signed form, which our hand-off page (/api/payments/checkout/:ref) sends.
 */
async function checkoutFor(
  ctx: PaymentsContext,
  method: string,
  input: OrderInput,
  session: PayerSession,
  body: unknown,
): Promise<PaylinkResponse> {
  const { app, db, publicUrl } = ctx;
  const chosen = hostedOrRefuse(ctx, method);
  if (input.autoRenew && !chosen.savedCards) throw badRequest(AUTO_RENEW_NOT_OFFERED, { autoRenew: AUTO_RENEW_NOT_OFFERED });
  const order = await priceOrder(ctx, input, session);
  await checkNewLineMac(app, input, session.clientId);
  const payer = await resolvePayer(ctx, input, session, order.pkg.name, body);
  // a provider that sends its own receipt by e-mail (needsEmail) cannot start without the address
  if (chosen.needsEmail && !payer.email.trim()) {
    const message = `${chosen.label} needs your e-mail address for its receipt. Add it, or choose another way to pay.`;
    throw badRequest(message, { email: message });
  }
  const payment = await newPayment(ctx, chosen.name, order, payer, input);
  const ref = payment.external_transaction_id;
  try {
    const checkout = await chosen.startCheckout(checkoutInput(ctx, payment));
    if (checkout.kind === "redirect") {
      await db
        .update(capturedPayments)
        .set({ provider_reference: checkout.providerReference, updated_at: new Date() })
        .where(eq(capturedPayments.id, payment.id));
      return { success: true, paylinkUrl: checkout.url, externalTransactionID: ref };
    }
    return { success: true, paylinkUrl: `${publicUrl}/api/payments/checkout/${encodeURIComponent(ref)}`, externalTransactionID: ref };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    app.log.error({ err: error, ref, provider: chosen.name }, "payment provider failed to start a checkout");
    await db
      .update(capturedPayments)
      .set({ status: "failed", notes: `Checkout not started at ${chosen.label}: ${reason}`.slice(0, 2000), updated_at: new Date() })
      .where(eq(capturedPayments.id, payment.id));
    throw new AppError(502, "payment_provider", PAYLINK_FAILED_MESSAGE);
  }
}

/**
 * GET /api/payments/checkout/:ref: the signed form that carries a pending form-post provider's payment
 * to the provider's page; a payment already settled sends the browser to its result page.
 */
export async function checkoutPage(
  ctx: PaymentsContext,
  ref: string,
): Promise<
  { kind: "form"; label: string; checkout: Extract<Checkout, { kind: "form" }>; amount: number } | { kind: "redirect"; location: string }
> {
  const payment = await findPayment(ctx, ref);
  const provider = payment ? ctx.hosted.get(payment.provider as HostedProviderName) : undefined;
  if (!payment || !provider) throw notFound("No such payment.");
  const q = `?ref=${encodeURIComponent(ref)}`;
  if (payment.status === "paid" || payment.status === "refunded") return { kind: "redirect", location: `/payment/success${q}` };
  if (payment.status !== "pending")
    return { kind: "redirect", location: `/payment/${payment.status === "cancelled" ? "cancel" : "failure"}${q}` };
  const checkout = await checkoutOnce(ctx, provider, payment);
  if (checkout.kind === "redirect") return { kind: "redirect", location: checkout.url };
  return { kind: "form", label: provider.label, checkout, amount: payment.amount };
}

/**
 * The payment's checkout: the one made already where the provider makes one per reference
 * (resumeCheckout), else a new one, whose reference is kept. Two first visits at once: the one
 * the provider refused finds its twin's checkout kept and resumes it.
 */
async function checkoutOnce(ctx: PaymentsContext, provider: HostedProvider, payment: Payment): Promise<Checkout> {
  const resume = (reference: string | null) => (reference && provider.resumeCheckout?.(reference)) || null;
  const made = resume(payment.provider_reference);
  if (made) return made;
  try {
    const checkout = await provider.startCheckout(checkoutInput(ctx, payment));
    if (checkout.kind === "redirect" && provider.resumeCheckout) {
      await ctx.db
        .update(capturedPayments)
        .set({ provider_reference: checkout.providerReference, updated_at: new Date() })
        .where(and(eq(capturedPayments.id, payment.id), isNull(capturedPayments.provider_reference)));
    }
    return checkout;
  } catch (error) {
    const [now] = await ctx.db
      .select({ reference: capturedPayments.provider_reference })
      .from(capturedPayments)
      .where(eq(capturedPayments.id, payment.id));
    const twin = resume(now?.reference ?? null);
    if (twin) return twin;
    throw error;
  }
}

// ---- the test checkout's own page ------------------------------------------------------------

function testCheckoutOrNotFound(ctx: PaymentsContext) {
  const testCheckout = testCheckoutOf(ctx.active);
  if (!testCheckout || ctx.cardMode === "off") throw notFound("The test checkout is only available when no card provider is configured.");
  return testCheckout;
}

/** The checkout page's facts, or where to send the browser when the pay link is settled. */
export async function testCheckout(
  ctx: PaymentsContext,
  ref: string,
): Promise<{ kind: "page"; paylink: TestPaylink; business: BusinessProfile } | { kind: "redirect"; location: string }> {
  const paylink = await testCheckoutOrNotFound(ctx).find(ref);
  if (!paylink) throw notFound("No such payment.");
  if (paylink.status !== "pending") return { kind: "redirect", location: resultPage(paylink) };
  return { kind: "page", paylink, business: await loadBusiness(ctx.app) };
}

/** Pay, Decline or Cancel: update the ledger, drive the webhook, answer the result page's path. */
export async function testCheckoutAction(ctx: PaymentsContext, ref: string, action: TestCheckoutAction): Promise<string> {
  const testCheckout = testCheckoutOrNotFound(ctx);
  const result = await testCheckout.settle(ref, TEST_OUTCOMES[action]);
  if (!result) throw notFound("No such payment.");
  if (result.settled) {
    const { request } = testCheckout.callbackFor(result.paylink);
    try {
      await handleCallback(ctx, testCheckout.name, request);
    } catch (error) {
      // The ledger is settled; the result page's status read reconciles with it.
      ctx.app.log.error({ err: error, ref }, "test checkout callback was not accepted");
    }
  }
  return resultPage(result.paylink);
}

function resultPage(paylink: TestPaylink): string {
  const page = RESULT_PAGES[paylink.status];
  const ref = encodeURIComponent(paylink.external_transaction_id);
  return page ? `/payment/${page}?ref=${ref}` : `${TEST_CHECKOUT_PATH}/${ref}`;
}
