// Card pay links, the provider webhook, payment status and EFT references.
// Rules (docs/architecture.md, "Payments"): the server prices the package (special included)
// and never trusts an amount from the browser; every payment belongs to a person (the signed-in
// client, or a lead made from the payer's name and WhatsApp number, linked to the client they
// already are); a payment is marked paid only after a verified callback (or our own status
// query) AND the provider's own status shows it paid for the amount we priced; each payment is
// captured once, and settled (account, term, receipt) in the same transaction (settle.ts).

import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type {
  CallbackRequest,
  Checkout,
  HostedProvider,
  HostedProviderName,
  NotificationRequest,
} from "@/server/adapters/payments/provider";
import type { SandboxOutcome, SandboxPaylink } from "@/server/adapters/payments/sandbox";
import { capturedPayments } from "@/server/db/schema";
import { type BusinessProfile, loadBusiness } from "@/server/lib/business";
import { AppError, badRequest, notFound } from "@/server/lib/errors";
import { checkNewLineMac } from "@/server/modules/panel/mac-change";
import { toCents } from "@/shared/money";
import { PAYMENT_METHOD_MESSAGE, paylinkRequestSchema } from "@/shared/schemas";
import {
  createPaymentsContext,
  findPayment,
  type OrderInput,
  type PayerSession,
  type PaymentsServiceOptions,
  validationError,
} from "./context";
import { createEft, EFT_REFERENCE_ALPHABET, type EftResponse, eftFor, eftInstead } from "./eft";
import { insertPayment } from "./insert-payment";
import { handleCallback, inBackground, paymentNotificationsSettled, takeNotification } from "./intake";
import { cardModeFor, paymentMethods } from "./methods";
import { identify, NO_CODE_FOR_THIS_PAYER, NOT_YOUR_ACCOUNT, REPLY_NOT_RECEIVED, resolvePayer } from "./payer";
import { checkCoupon, priceActivePackage, priceOrder } from "./pricing";
import { messageState, publicStatus } from "./status";

export type { OrderInput, PayerSession, PaymentsServiceOptions };
export {
  cardModeFor,
  EFT_REFERENCE_ALPHABET,
  type EftResponse,
  messageState,
  NO_CODE_FOR_THIS_PAYER,
  NOT_YOUR_ACCOUNT,
  paymentMethods,
  paymentNotificationsSettled,
  REPLY_NOT_RECEIVED,
};

// ---- response shapes (the contract the web app reads) -------------------------------------

export interface PaylinkResponse {
  success: true;
  paylinkUrl: string;
  externalTransactionID: string;
}

// ---- constants ------------------------------------------------------------------------------

/** Spec §7: 'a fixed product prefix, underscore, a timestamp and random text'. */
export const TRANSACTION_PREFIX = "STRMDSK";
/** A pending card payment is re-checked with the provider at most this often when its status is read. */

export const PAYLINK_FAILED_MESSAGE = "Failed to create payment link";

type Payment = typeof capturedPayments.$inferSelect;
export type SandboxAction = "pay" | "decline" | "cancel";

const SANDBOX_OUTCOMES: Record<SandboxAction, SandboxOutcome> = { pay: "SUCCESS", decline: "FAILURE", cancel: "CANCELLED" };
const RESULT_PAGES: Record<string, string> = { SUCCESS: "success", FAILURE: "failure", CANCELLED: "cancel" };

/** Card payments are off: a real shop with no card provider configured (EFT still works). */
export const CARD_OFF_MESSAGE = "Card payments are not available at the moment. Please pay by EFT instead.";
/** Where each hosted provider sends its notifications (the routes in routes.ts). */
export const NOTIFY_PATHS: Record<HostedProviderName, string> = {
  payfast: "/api/payments/payfast/itn",
  ozow: "/api/payments/ozow/notify",
  yoco: "/api/payments/yoco/webhook",
};
const notifyPath = (name: HostedProviderName) => NOTIFY_PATHS[name];

export function makeTransactionId(now = Date.now()): string {
  let random = "";
  for (let i = 0; i < 10; i++) random += randomInt(36).toString(36);
  return `${TRANSACTION_PREFIX}_${now}_${random}`;
}

export function createPaymentsService(app: FastifyInstance, options: PaymentsServiceOptions = {}) {
  const { db } = app;
  const ctx = createPaymentsContext(app, options);
  const { publicUrl, active, cardMode, hosted } = ctx;
  const provider = active.provider;

  // ---- card pay links -----------------------------------------------------------------------

  async function createPaylink(body: unknown, session: PayerSession = { clientId: null }): Promise<PaylinkResponse> {
    const parsed = paylinkRequestSchema.safeParse(body ?? {});
    if (!parsed.success) throw validationError(parsed.error);
    return paylinkFor(parsed.data, session, body);
  }

  /** A pay link for a package. `input.immediateStartConsent` is the payer's ECT s44 consent (a renewal from the portal has none). */
  async function paylinkFor(input: OrderInput, session: PayerSession, body: unknown = input): Promise<PaylinkResponse> {
    if (input.method && input.method !== "card") return checkoutFor(input.method, input, session, body);
    if (cardMode === "off") throw new AppError(409, "card_payments_off", CARD_OFF_MESSAGE);
    const order = await priceOrder(ctx, input, session);
    const { pkg, amountCents } = order;
    await checkNewLineMac(app, input, session.clientId);
    const payer = await resolvePayer(ctx, input, session, pkg.name, body);

    const ref = makeTransactionId();
    const description = `${pkg.name} IPTV Subscription`;
    const payment = await insertPayment(db, { provider: provider.name, reference: ref, order, payer, input, email: payer.email });
    if (!payment) throw new Error(`payment reference ${ref} already taken`);

    const q = `?ref=${encodeURIComponent(ref)}`;
    try {
      const link = await provider.createPaylink({
        amountCents,
        currency: "ZAR",
        description,
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

  // ---- hosted providers: PayFast, Ozow, Yoco ----------------------------------------------------

  function hostedOrRefuse(name: string): HostedProvider {
    const found = hosted.get(name as HostedProviderName);
    if (!found) throw badRequest(PAYMENT_METHOD_MESSAGE, { method: PAYMENT_METHOD_MESSAGE });
    return found;
  }

  /** What the provider's checkout is started with, for a payment row (the same every time it is asked). */
  function checkoutInput(payment: Pick<Payment, "external_transaction_id" | "amount" | "description" | "provider">) {
    const ref = payment.external_transaction_id;
    const q = `?ref=${encodeURIComponent(ref)}`;
    return {
      amountCents: toCents(payment.amount),
      description: payment.description,
      reference: ref,
      urls: {
        notifyUrl: `${publicUrl}${notifyPath(payment.provider as HostedProviderName)}`,
        successUrl: `${publicUrl}/payment/success${q}`,
        failureUrl: `${publicUrl}/payment/failure${q}`,
        cancelUrl: `${publicUrl}/payment/cancel${q}`,
      },
    };
  }

  /**
   * A pay link through PayFast, Ozow or Yoco: the same pricing, payer and pending row as a card
   * pay link, then the provider's checkout. Yoco makes a checkout by API and gives its URL; PayFast
   * and Ozow take a signed form post, which our hand-off page (/api/payments/checkout/:ref) sends.
   */
  async function checkoutFor(method: string, input: OrderInput, session: PayerSession, body: unknown): Promise<PaylinkResponse> {
    const chosen = hostedOrRefuse(method);
    const order = await priceOrder(ctx, input, session);
    const { pkg } = order;
    await checkNewLineMac(app, input, session.clientId);
    const payer = await resolvePayer(ctx, input, session, pkg.name, body);
    const ref = makeTransactionId();
    const payment = await insertPayment(db, { provider: chosen.name, reference: ref, order, payer, input, email: payer.email });
    if (!payment) throw new Error(`payment reference ${ref} already taken`);
    try {
      const checkout = await chosen.startCheckout(checkoutInput(payment));
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
   * GET /api/payments/checkout/:ref: the signed form that carries a pending PayFast or Ozow payment
   * to the provider's page; a payment already settled sends the browser to its result page.
   */
  async function checkoutPage(
    ref: string,
  ): Promise<
    { kind: "form"; label: string; checkout: Extract<Checkout, { kind: "form" }>; amount: number } | { kind: "redirect"; location: string }
  > {
    const payment = await findPayment(ctx, ref);
    const provider = payment ? hosted.get(payment.provider as HostedProviderName) : undefined;
    if (!payment || !provider) throw notFound("No such payment.");
    const q = `?ref=${encodeURIComponent(ref)}`;
    if (payment.status === "paid" || payment.status === "refunded") return { kind: "redirect", location: `/payment/success${q}` };
    if (payment.status !== "pending")
      return { kind: "redirect", location: `/payment/${payment.status === "cancelled" ? "cancel" : "failure"}${q}` };
    const checkout = await provider.startCheckout(checkoutInput(payment));
    if (checkout.kind === "redirect") return { kind: "redirect", location: checkout.url };
    return { kind: "form", label: provider.label, checkout, amount: payment.amount };
  }

  /**
   * A hosted provider's notification, read and checked before anything is looked up: bad input
   * (missing fields, wrong types, not ZAR) is a 400; a bad signature is a 401 where `strict`, else
   * (PayFast, whose ITN is answered 200 whatever happens) only noted. Returns the rest of the work:
   * find our payment, ask the provider's server, capture through the one capture path.
   */
  // ---- the sandbox's hosted checkout -----------------------------------------------------------

  function sandboxOrNotFound() {
    if (active.kind !== "sandbox" || cardMode !== "sandbox")
      throw notFound("The test checkout is only available when no card provider is configured.");
    return active.provider;
  }

  /** The checkout page's facts, or where to send the browser when the pay link is settled. */
  async function sandboxCheckout(
    ref: string,
  ): Promise<{ kind: "page"; paylink: SandboxPaylink; business: BusinessProfile } | { kind: "redirect"; location: string }> {
    const paylink = await sandboxOrNotFound().find(ref);
    if (!paylink) throw notFound("No such payment.");
    if (paylink.status !== "pending") return { kind: "redirect", location: resultPage(paylink) };
    return { kind: "page", paylink, business: await loadBusiness(app) };
  }

  /** Pay, Decline or Cancel: update the ledger, drive the webhook, answer the result page's path. */
  async function sandboxAction(ref: string, action: SandboxAction): Promise<string> {
    const sandbox = sandboxOrNotFound();
    const result = await sandbox.settle(ref, SANDBOX_OUTCOMES[action]);
    if (!result) throw notFound("No such payment.");
    if (result.settled) {
      const { request } = sandbox.callbackFor(result.paylink);
      try {
        await handleCallback(ctx, "sandbox", request);
      } catch (error) {
        // The ledger is settled; the result page's status read reconciles with it.
        app.log.error({ err: error, ref }, "sandbox callback was not accepted");
      }
    }
    return resultPage(result.paylink);
  }

  function resultPage(paylink: SandboxPaylink): string {
    const page = RESULT_PAGES[paylink.status];
    const ref = encodeURIComponent(paylink.external_transaction_id);
    return page ? `/payment/${page}?ref=${ref}` : `/api/payments/sandbox/checkout/${ref}`;
  }

  return {
    providerName: provider.name,
    /** which ways to pay are on (GET /api/payments/methods) */
    methods: () => paymentMethods(app),
    takeNotification: (name: HostedProviderName, request: NotificationRequest, options: { strict: boolean; source?: string }) =>
      takeNotification(ctx, name, request, options),
    inBackground: (work: () => Promise<void>) => inBackground(ctx, work),
    checkoutPage,
    /** a package's price today (specials included), as a pay link or EFT reference charges it; 400 when not on sale */
    priceOf: (packageId: string) => priceActivePackage(ctx, packageId),
    paylinkFor,
    eftFor: (input: OrderInput, session: PayerSession, body?: unknown) => eftFor(ctx, input, session, body),
    eftInstead: (ref: string) => eftInstead(ctx, ref),
    /** the path a provider signs for its callbacks to us */
    callbackPath: (name: string) => new URL(`${publicUrl}/api/payments/webhook/${name}`).pathname,
    createPaylink,
    handleCallback: (providerName: string, request: CallbackRequest) => handleCallback(ctx, providerName, request),
    publicStatus: (ref: string) => publicStatus(ctx, ref),
    createEft: (body: unknown, session?: PayerSession) => createEft(ctx, body, session),
    checkCoupon: (body: unknown, session?: PayerSession) => checkCoupon(ctx, body, session),
    identify: (body: unknown, session?: PayerSession) => identify(ctx, body, session),
    sandboxCheckout,
    sandboxAction,
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
