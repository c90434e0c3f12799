// Automatic renewal by a saved card (issue 44): the words the payer agrees to at checkout, the
// same on the review step and on the payment row, and the notice three days before a charge.
import { formatRand } from "./money";

/** Days before the term ends that the customer is told of the coming charge. */
export const AUTO_RENEW_NOTICE_DAYS = 3;
/** Days before the term ends that the card is charged. */
export const AUTO_RENEW_CHARGE_DAYS = 1;

export const AUTO_RENEW_LABEL = "Renew automatically with this card";
export const AUTO_RENEW_NOT_OFFERED = "This way to pay cannot renew automatically: choose a card provider that can, or leave it off";

/** 'each month', 'every 3 months'. */
export function renewalPeriod(months: number): string {
  return months <= 1 ? "each month" : `every ${months} months`;
}

/** "We'll charge R650 to this card each month on the day before your line ends, and tell you 3 days before. Turn it off any time in your portal." */
export function autoRenewConsent(amountCents: number, months: number): string {
  return `We'll charge ${formatRand(amountCents / 100)} to this card ${renewalPeriod(months)} on the day before your line ends, and tell you ${AUTO_RENEW_NOTICE_DAYS} days before. Turn it off any time in your portal.`;
}

/** What the owner and the portal show of a client's automatic renewal. */
export interface AutoRenewView {
  enabled: boolean;
  /** payfast */
  provider: string;
  /** "card via PayFast", "Visa ending 4242 via PayFast" */
  card: string;
  consent: string;
  consentAt: string | null;
  /** the card is kept (the provider's token arrived): a charge can be made */
  ready: boolean;
  /** "Use another card" is offered: on, a card kept, and its provider keeps a new one without a charge */
  canChangeCard: boolean;
}

/** GET /api/admin/renewals: the owner's view. */
export interface RenewalsOverview {
  autoRenewing: number;
  due: { clientId: string; name: string; amount: number; chargeOn: string; termEnd: string }[];
  failures: { clientId: string; name: string; status: string; reason: string; termEnd: string; at: string }[];
}
