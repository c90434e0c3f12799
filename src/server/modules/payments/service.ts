// The payments module's one service, assembled from its jobs (docs/architecture.md, "Payments"):
//   checkout.ts  pay links and hosted checkouts (card, the hosted providers; the test checkout's page)
//   intake.ts    notification intake: verify, confirm with the provider, capture once (settle.ts)
//   status.ts    status for the result page, with a throttled status query for a pending payment
//   payer.ts     payer proof: the client or lead a payment is for, and the one-time code
//   eft.ts       EFT references
//   pricing.ts   pricing an order (today's special, the coupon); insert-payment.ts the one row insert
// Shared state (the app, the public URL, the providers, the options) is one PaymentsContext
// (context.ts), built here once per service; the methods below are the routes' and callers' API.
import type { FastifyInstance } from "fastify";
import type { CallbackRequest, HostedProviderName, NotificationRequest } from "@/server/adapters/payments/provider";
import { checkoutPage, createPaylink, paylinkFor, type TestCheckoutAction, testCheckout, testCheckoutAction } from "./checkout";
import { createPaymentsContext, type OrderInput, type PayerSession, type PaymentsServiceOptions } from "./context";
import { createEft, eftFor, eftInstead } from "./eft";
import { handleCallback, inBackground, takeNotification } from "./intake";
import { paymentMethods } from "./methods";
import { identify } from "./payer";
import { checkCoupon, priceActivePackage } from "./pricing";
import { publicStatus } from "./status";

export {
  CARD_OFF_MESSAGE,
  makeTransactionId,
  NOTIFY_PATHS,
  PAYLINK_FAILED_MESSAGE,
  type TestCheckoutAction,
} from "./checkout";
export type { OrderInput, PayerSession, PaymentsServiceOptions } from "./context";
export { EFT_REFERENCE_ALPHABET } from "./eft";
export { paymentNotificationsSettled } from "./intake";
export { cardModeFor, paymentMethods } from "./methods";
export { identifyLookupsSettled, PAYER_CODE_REFUSED } from "./payer";
export { messageState } from "./status";

export function createPaymentsService(app: FastifyInstance, options: PaymentsServiceOptions = {}) {
  const ctx = createPaymentsContext(app, options);
  return {
    providerName: ctx.active.provider.name,
    /** which ways to pay are on (GET /api/payments/methods) */
    methods: () => paymentMethods(app),
    takeNotification: (name: HostedProviderName, request: NotificationRequest, options: { strict: boolean; source?: string }) =>
      takeNotification(ctx, name, request, options),
    inBackground: (work: () => Promise<void>) => inBackground(ctx, work),
    checkoutPage: (ref: string) => checkoutPage(ctx, ref),
    /** a package's price today (specials included), as a pay link or EFT reference charges it; 400 when not on sale */
    priceOf: (packageId: string) => priceActivePackage(ctx, packageId),
    paylinkFor: (input: OrderInput, session: PayerSession, body?: unknown) => paylinkFor(ctx, input, session, body),
    eftFor: (input: OrderInput, session: PayerSession, body?: unknown) => eftFor(ctx, input, session, body),
    eftInstead: (ref: string) => eftInstead(ctx, ref),
    /** the path a provider signs for its callbacks to us */
    callbackPath: (name: string) => new URL(`${ctx.publicUrl}/api/payments/webhook/${name}`).pathname,
    createPaylink: (body: unknown, session?: PayerSession) => createPaylink(ctx, body, session),
    handleCallback: (providerName: string, request: CallbackRequest) => handleCallback(ctx, providerName, request),
    publicStatus: (ref: string) => publicStatus(ctx, ref),
    createEft: (body: unknown, session?: PayerSession) => createEft(ctx, body, session),
    checkCoupon: (body: unknown, session?: PayerSession) => checkCoupon(ctx, body, session),
    identify: (body: unknown, session?: PayerSession) => identify(ctx, body, session),
    testCheckout: (ref: string) => testCheckout(ctx, ref),
    testCheckoutAction: (ref: string, action: TestCheckoutAction) => testCheckoutAction(ctx, ref, action),
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
