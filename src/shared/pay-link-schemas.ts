// The one-tap pay link (issue 27 item 4): GET /api/pay-links/:token says what the page shows,
// POST /api/pay-links/:token/pay {method} starts the payment (the portal renewal's path).
import { z } from "zod";
import type { PaymentMethods } from "./api";
import { RENEW_METHODS } from "./client-schemas";

/** The words of the pay link's refusals, shown on the page as they come. */
export const PAY_LINK_MESSAGES = {
  invalid: "This pay link is not valid. Please use the link in your latest message from us, or contact us.",
  expired: "This pay link has expired. Sign in to your client portal to pay, or contact us for a new link.",
  gone: "This account is no longer with us, so this pay link no longer works. Please contact us.",
  packageGone: "This package is no longer available. Sign in to your client portal to choose another, or contact us.",
  method: "Choose how to pay",
} as const;

export const payLinkTokenParams = z.object({
  // the token's own check says more; this only keeps junk out of the route
  token: z
    .string()
    .max(200, PAY_LINK_MESSAGES.invalid)
    .regex(/^[A-Za-z0-9_-]+$/, PAY_LINK_MESSAGES.invalid),
});

export const payLinkPaySchema = z.object({
  method: z.enum(RENEW_METHODS, { error: PAY_LINK_MESSAGES.method }),
});
export type PayLinkPayRequest = z.output<typeof payLinkPaySchema>;

/** GET /api/pay-links/:token → {data}: what the page needs and nothing more (a first name only). */
export interface PayLinkView {
  business: string;
  /** the client's first name */
  firstName: string;
  packageName: string;
  /** the price today in rand (specials included), what the payment will be for */
  price: number;
  /** the price without today's special, when one applies */
  listPrice: number | null;
  /** the ways to pay that are on (GET /api/payments/methods) */
  methods: PaymentMethods;
  /** when the link stops working (ISO) */
  expiresAt: string;
  /**
   * Where the customer's term stands and where this payment takes it (the lifecycle's rule: time
   * is added to a term that runs, counted from the day paid otherwise). `running`: the line is on
   * now, and paying adds time to `endsAt`; else it switches on when the payment is confirmed.
   */
  term: { running: boolean; endsAt: string | null; newEnd: string };
}

/** POST /api/pay-links/:token/pay → 201 (the portal renewal's answer) */
export type { ClientRenewResponse as PayLinkPayResponse } from "./client-schemas";
