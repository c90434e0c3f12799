// What the payments module needs from a card provider (docs/architecture.md, "Integrations"): create a pay link,
// verify a callback, and ask for the truth about a pay link before anything is marked paid.

import type { Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import type { PaymentProviderInfo } from "@/shared/api";
import type { CardProviderName, HostedProviderName } from "@/shared/payment-providers";

export type { CardProviderName, HostedProviderName } from "@/shared/payment-providers";

/** A card provider's name: the real one, or the local test checkout. */
export type ProviderName = CardProviderName;

import type { SavedCardCharger } from "./saved-card";

export interface PaylinkUrls {
  callbackUrl: string;
  successPageUrl: string;
  failurePageUrl: string;
  cancelUrl: string;
}

export interface CreatePaylinkInput {
  /** integer cents: R100 is 10000 */
  amountCents: number;
  currency: "ZAR";
  description: string;
  /** our id, STRMDSK_… (spec §7) */
  externalTransactionID: string;
  urls: PaylinkUrls;
  /** shown to the customer by the provider; defaults to externalTransactionID */
  paymentReference?: string;
}

export interface CreatedPaylink {
  paylinkUrl: string;
  paylinkID: string;
}

export interface CallbackRequest {
  /** the URL path the callback was sent to (what the provider signed), no host or query */
  path: string;
  /** the body exactly as received */
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
}

export type PaylinkStatus = "paid" | "failed" | "cancelled" | "pending";

export interface PaylinkStatusResult {
  status: PaylinkStatus;
  amountCents: number;
  /** the provider's id of the money, where its status answer names one (the dedupe key) */
  providerPaymentId?: string;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createPaylink(input: CreatePaylinkInput): Promise<CreatedPaylink>;
  verifyCallback(request: CallbackRequest): boolean;
  /** by the provider's paylinkID, or by our externalTransactionID where the provider allows it */
  getStatus(id: string): Promise<PaylinkStatusResult>;
  /**
   * Gives money back to the card that paid, where the provider has a refund API. iKhokha
   * publishes none, so its refunds are made in its merchant portal and recorded as manual.
   */
  refund?(paylinkID: string, amountCents: number): Promise<{ reference: string }>;
}

/** The provider refused or could not be reached; the message is for logs and admin notes. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "PaymentProviderError";
  }
}

/** Provider words for a pay link's state, mapped to ours; anything unknown is still pending. */
export function statusFromProvider(value: unknown): PaylinkStatus {
  const word = typeof value === "string" ? value.trim().toUpperCase() : "";
  if (["SUCCESS", "SUCCESSFUL", "PAID", "COMPLETED", "APPROVED"].includes(word)) return "paid";
  if (["FAILURE", "FAILED", "DECLINED", "ERROR", "EXPIRED"].includes(word)) return "failed";
  if (["CANCELLED", "CANCELED"].includes(word)) return "cancelled";
  return "pending";
}

// ---- hosted providers (PayFast, Ozow, Yoco) ---------------------------------------------------

export interface CheckoutInput {
  /** integer cents */
  amountCents: number;
  description: string;
  /** our reference, STRMDSK_… */
  reference: string;
  urls: { notifyUrl: string; successUrl: string; cancelUrl: string; failureUrl: string };
  /** the buyer's e-mail, for a provider that requires one (Paystack) */
  email?: string;
  /** keep the card for charges we start later (PayFast subscription_type=2): the payer consented to automatic renewal */
  saveCard?: boolean;
}

/** Where the customer goes: a URL the provider made (Yoco), or a signed form our page posts (PayFast, Ozow). */
export type Checkout =
  | { kind: "redirect"; url: string; providerReference: string }
  | { kind: "form"; action: string; fields: [string, string][] };

/** A notification as received: the exact body, its content type and headers. */
export interface NotificationRequest {
  rawBody: string;
  headers: Record<string, string | string[] | undefined>;
}

/** What a verified notification says, in our words. */
export interface ProviderNotification {
  /** our reference (PayFast m_payment_id, Ozow TransactionReference); Yoco names its checkout instead */
  reference?: string;
  /** the provider's checkout id, where our reference is not carried (Yoco) */
  checkoutId?: string;
  /** the provider's id of the money movement: the dedupe key */
  providerPaymentId: string;
  status: PaylinkStatus;
  amountCents: number;
  /** the provider's own status word, for notes */
  providerStatus: string;
  /** the fields as received, minus any signature, for raw_payload */
  payload: Record<string, unknown>;
  /** what the provider's confirmation is asked with (PayFast: the signed pairs posted back) */
  echo?: string;
  /**
   * A card the provider can charge again without the customer (Paystack's reusable
   * authorization_code): the token is a secret, kept encrypted; the label is for people.
   */
  savedCard?: { token: string; label: string };
  /** an event this shop does not act on (Paystack's refund.processed, transfer.success, …): acknowledged and logged, nothing looked up */
  ignored?: true;
}

/** Why a notification is refused before anything is looked up. */
export class NotificationRefused extends Error {
  constructor(
    readonly kind: "bad_input" | "bad_signature",
    message: string,
    /** the field names at fault, for the 400's per-field messages */
    readonly fields: Record<string, string> = {},
    /** our reference, when the body named one (a note on that payment) */
    readonly reference?: string,
    /** the provider's checkout id, where the body names that instead (Yoco) */
    readonly checkoutId?: string,
  ) {
    super(message);
    this.name = "NotificationRefused";
  }
}

export interface HostedProvider {
  readonly name: HostedProviderName;
  /** the name customers know it by */
  readonly label: string;
  /** the checkout cannot start without the buyer's e-mail address (Paystack e-mails its own receipt) */
  readonly needsEmail?: boolean;
  /** Charges a card it kept at checkout (PayFast's tokenisation, issue 44); absent where the provider cannot. */
  readonly savedCards?: SavedCardCharger;
  startCheckout(input: CheckoutInput): Promise<Checkout>;
  /**
   * The checkout already made for a pending payment, from what startCheckout gave as its
   * providerReference, for a provider that makes one checkout per reference (Paystack refuses a
   * second initialize): the customer who comes back is sent to the first. Absent (or null) where a
   * checkout may simply be made again.
   */
  resumeCheckout?(providerReference: string): Checkout | null;
  /**
   * Parses and verifies a notification: the shape (missing fields, wrong types, a currency other
   * than ZAR are `bad_input`), then the signature (`bad_signature`). Never touches the network.
   */
  readNotification(request: NotificationRequest): ProviderNotification;
  /**
   * The provider's own server confirms it (PayFast's validate, Ozow's status API, Yoco's checkout):
   * the truth the capture compares with our amount. Throws PaymentProviderError when it cannot be asked.
   */
  confirm(
    notification: ProviderNotification,
    payment: { reference: string; providerReference: string | null },
  ): Promise<PaylinkStatusResult>;
  /** The status by our reference (or the provider's checkout id), for the result page; absent where there is no status API. */
  getStatus?(payment: { reference: string; providerReference: string | null }): Promise<PaylinkStatusResult>;
  /**
   * Before a refund is sent: whether the provider will take it by API, and what to compare with
   * after a lost answer (PayFast: the amount it has left to refund). Read-only; throws
   * PaymentProviderError (in the owner's words) when the API will not refund it.
   */
  prepareRefund?(request: ProviderRefundRequest): Promise<{ mark: string | null }>;
  /**
   * Money back through the provider's refund API. Throws PaymentProviderError when the provider
   * refused (nothing happened), RefundOutcomeUnknown when the answer was lost (it may have happened).
   */
  refund?(request: ProviderRefundRequest, mark: string | null): Promise<ProviderRefund>;
  /**
   * After a lost answer, what the provider holds: the refund (made), null (not made), or throws
   * PaymentProviderError when it cannot be asked. Never sends a second refund, except where the
   * provider dedupes on our refund id (Yoco's Idempotency-Key), which answers the first one's outcome.
   */
  findRefund?(request: ProviderRefundRequest, context: RefundLookup): Promise<ProviderRefund | null>;
}

// ---- refunds through a provider's API ---------------------------------------------------------

/** How the money goes back, for the customer's message: to the card, the way they paid, or the bank account they paid from. */
export type RefundRoute = PaymentProviderInfo["refund"]["route"];

/** How a refund to the card goes back, in the customer's words: every provider that refunds to the card says it so. */
export const CARD_REFUND = {
  route: "card",
  how: "It goes back to the card you paid with; banks usually take 5 to 10 working days.",
} as const satisfies PaymentProviderInfo["refund"];

export interface ProviderRefundRequest {
  /** our refund's id (refund_attempts.id): the Idempotency-Key where the provider takes one */
  refundId: string;
  payment: {
    /** our reference, STRMDSK_… */
    reference: string;
    /** the provider's checkout id (Yoco) */
    providerReference: string | null;
    /** the provider's id of the money (PayFast pf_payment_id, Ozow TransactionId) */
    providerPaymentId: string | null;
    /** what was paid, integer cents */
    amountCents: number;
  };
  amountCents: number;
  reason: string;
}

export interface RefundLookup {
  /** what prepareRefund answered */
  mark: string | null;
  /** when the refund was sent */
  sentAt: Date;
  /** the provider's references of this payment's refunds recorded already (not this one) */
  known: string[];
}

export interface ProviderRefund {
  /** the provider's id of the refund, else ours */
  reference: string;
  route: RefundRoute;
}

/** The provider's answer to a refund was lost (timeout, broken connection, 5xx, unreadable): it may have been made. */
export class RefundOutcomeUnknown extends PaymentProviderError {
  constructor(message: string, status?: number) {
    super(message, status);
    this.name = "RefundOutcomeUnknown";
  }
}

// ---- the registry's entries (registry.ts) -----------------------------------------------------

/** What making a provider may need besides its configuration. */
export interface ProviderDeps {
  db: Db;
  /** PUBLIC_URL without a trailing slash */
  publicUrl: string;
}

interface DefinitionParts<Name> extends Omit<PaymentProviderInfo, "name" | "role"> {
  readonly name: Name;
  /** the configuration keys that turn it on, all of them together (none for the test checkout) */
  readonly configKeys: readonly (keyof Config)[];
  /** whether the configuration turns it on */
  configured(config: Config): boolean;
}

/** A card provider: takes cards through a pay link it makes and tells us on our webhook. */
export interface CardProviderDefinition<Made extends PaymentProvider = PaymentProvider> extends DefinitionParts<CardProviderName> {
  readonly role: "card";
  /** for a test provider: whether this shop takes its (not real) payments; absent, a test provider always may */
  offered?(config: Config, publicUrl: string): boolean;
  /** makes it from the configuration; only called when configured(config) */
  create(config: Config, deps: ProviderDeps): Made;
}

/** Finds a host's addresses (the app's resolver: DNS, or a test's). */
export type HostResolver = (host: string) => Promise<string[]>;

/** Who may send a provider's notifications, where the provider documents it (PayFast's ITN hosts). */
export interface NotificationSourceCheck {
  /** whether a notification from this address may be believed */
  allows(address: string | undefined): Promise<boolean>;
  /** the owner's note on the payment when a notification from this address is refused */
  refusedNote(address: string | undefined): string;
}

/** A provider beside the card provider: its own checkout page, and its own notification. */
export interface HostedProviderDefinition extends DefinitionParts<HostedProviderName> {
  readonly role: "hosted";
  /**
   * Its notification is answered 200 at once and checked after the answer, where the provider
   * asks it so (PayFast's ITN); otherwise it is checked and captured before the answer, so a
   * failure to confirm is an error status and the provider delivers it again.
   */
  readonly answersNotificationAtOnce?: true;
  /** where its notifications may come from, checked after the answer; absent where the signature is the whole check */
  notificationSource?(config: Config, resolve: HostResolver): NotificationSourceCheck;
  /** makes it from the configuration (the URLs come with each checkout); only called when configured(config) */
  create(config: Config): HostedProvider;
}

export type ProviderDefinition = CardProviderDefinition | HostedProviderDefinition;

/** A key configured(config) said is set, for create(); a missing one is a programming error, not a silent "". */
export function configuredValue(config: Config, key: keyof Config): string {
  const value = config[key];
  if (typeof value !== "string" || !value)
    throw new Error(`${String(key)} is not set: create() called for a provider that is not configured`);
  return value;
}
