// Paystack (README.md beside this file, following Paystack's API reference and its webhooks
// guide): the checkout is a transaction initialised by API with a bearer secret key, amounts in
// cents, and the customer goes to its authorization_url. Webhooks carry `x-paystack-signature`,
// the hex HMAC-SHA512 of the raw body keyed with the same secret key. Nothing is paid on a
// webhook's word: the transaction is read back (verify) and must say success, our amount and ZAR.
// Refunds, and charges of a saved card (a reusable authorization_code), go through the same API.
import { createHmac, timingSafeEqual } from "node:crypto";
import type * as Contract from "../provider";
import { NotificationRefused, PaymentProviderError, RefundOutcomeUnknown } from "../provider";
import type { SavedCardCharger, SavedCardLookup } from "../saved-card";
import { headerValue } from "../signing";

const DEFAULT_TIMEOUT_MS = 10_000;
/** The one event that settles a payment; every other event is read as pending and left to the caller to ignore. */
export const PAYSTACK_PAID_EVENT = "charge.success";
/** A refund found after a lost answer must be made no earlier than this before we sent ours (clock skew). */
const REFUND_CLOCK_SLACK_MS = 5 * 60_000;

/** The `x-paystack-signature` a body carries: hex HMAC-SHA512 of the raw body, keyed with the secret key. */
export function paystackSignature(secretKey: string, rawBody: string): string {
  return createHmac("sha512", secretKey.trim()).update(rawBody, "utf8").digest("hex");
}

/**
 * A transaction's `status` in Paystack's words, mapped to ours: only `success` is paid. `abandoned`
 * is a transaction nobody has finished paying yet (the customer may still), so it stays pending.
 */
export function paystackStatus(word: unknown): Contract.PaylinkStatus {
  switch (String(word ?? "").toLowerCase()) {
    case "success":
      return "paid";
    case "failed":
    case "reversed":
      return "failed";
    default:
      return "pending";
  }
}

/** What Paystack's own record of a transaction says (verify, or a charge's answer). */
export interface PaystackTransaction extends Contract.PaylinkStatusResult {
  /** Paystack's currency code; anything but ZAR is never paid to us */
  currency: string;
  /** the transaction's reference (ours) */
  reference: string;
  /** Paystack's own status word (`success`, `failed`, `abandoned`, …) and its gateway's words */
  providerStatus: string;
  gatewayResponse: string;
  /** the card, when Paystack says it can be charged again */
  savedCard?: { token: string; label: string };
}

export interface ChargeAuthorizationInput {
  /** the saved card's authorization_code */
  authorizationCode: string;
  /** the e-mail the card was saved with (Paystack checks it belongs to the authorization's customer) */
  email: string;
  /** integer cents */
  amountCents: number;
  /** our reference for this charge: Paystack refuses a second transaction with it */
  reference: string;
}

/** The answer to a saved-card charge was lost (timeout, broken connection, 5xx, unreadable): it may have been made. Verify by its reference. */
export class ChargeOutcomeUnknown extends PaymentProviderError {
  constructor(message: string, status?: number) {
    super(message, status);
    this.name = "ChargeOutcomeUnknown";
  }
}

export interface PaystackOptions {
  /** PAYSTACK_API_URL: https://api.paystack.co, or a fake of ours */
  apiUrl: string;
  /** PAYSTACK_SECRET_KEY: sk_live_… / sk_test_… */
  secretKey: string;
  timeoutMs?: number;
}

/** The hosted provider's shape, named `paystack`, with its saved-card charge. */
export interface PaystackProvider extends Omit<Contract.HostedProvider, "name"> {
  readonly name: "paystack";
  /** The transaction as Paystack holds it, by our reference: throws PaymentProviderError when it cannot be asked or names no such transaction. */
  verify(reference: string): Promise<PaystackTransaction>;
  /** The saved-card charger the renewals use (chargeAuthorization, deactivate, verify by reference). */
  readonly savedCards: SavedCardCharger;
  /**
   * Charges a saved card (POST /transaction/charge_authorization). Throws PaymentProviderError when
   * Paystack refused the request (nothing charged), ChargeOutcomeUnknown when the answer was lost
   * (verify by the same reference: Paystack never makes two transactions with one reference).
   * A decline is an answer: status `failed`.
   */
  chargeAuthorization(input: ChargeAuthorizationInput): Promise<PaystackTransaction>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");

/** The reusable card an `authorization` object describes, else undefined. */
function savedCardFrom(authorization: unknown): { token: string; label: string } | undefined {
  if (!isObject(authorization) || authorization.reusable !== true) return undefined;
  const token = text(authorization.authorization_code).trim();
  if (!token) return undefined;
  const kind = (text(authorization.card_type) || text(authorization.brand) || "card").trim();
  const last4 = text(authorization.last4).trim();
  const month = text(authorization.exp_month).trim();
  const year = text(authorization.exp_year).trim();
  const label = [
    kind.charAt(0).toUpperCase() + kind.slice(1),
    last4 ? `ending ${last4}` : "",
    month && year ? `(expires ${month.padStart(2, "0")}/${year})` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return { token, label };
}

export function createPaystackProvider(options: PaystackOptions): PaystackProvider {
  const base = options.apiUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const secretKey = options.secretKey.trim();

  /**
   * One API call. Paystack answers `{status, message, data}`; a 4xx carries `status: false` and a
   * message. Unreachable, a 5xx or an unreadable answer is a PaymentProviderError without a 4xx
   * status, which the callers that send money read as "it may have happened".
   */
  async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<Json> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${secretKey}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new PaymentProviderError(
        `Paystack could not be reached (${method} ${path}): ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    let raw: string;
    try {
      raw = await response.text();
    } catch (error) {
      throw new PaymentProviderError(
        `Paystack's answer to ${method} ${path} was cut off: ${error instanceof Error ? error.message : String(error)}`,
        response.status >= 500 ? response.status : undefined,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const message = isObject(parsed) && typeof parsed.message === "string" ? parsed.message : raw.slice(0, 200);
      throw new PaymentProviderError(`Paystack answered ${response.status} to ${method} ${path}: ${message}`, response.status);
    }
    if (!isObject(parsed)) throw new PaymentProviderError(`Paystack answered ${method} ${path} with something other than a JSON object`);
    if (parsed.status !== true) {
      throw new PaymentProviderError(`Paystack refused ${method} ${path}: ${text(parsed.message) || "no reason given"}`, response.status);
    }
    return parsed;
  }

  /** A transaction object (verify's or a charge's `data`) in our words. */
  function transactionFrom(data: unknown, what: string): PaystackTransaction {
    if (!isObject(data)) throw new PaymentProviderError(`Paystack's answer about ${what} carries no transaction`);
    if (typeof data.amount !== "number" || !Number.isInteger(data.amount) || data.amount < 0) {
      throw new PaymentProviderError(`Paystack's transaction ${what} carries no whole-cents amount`);
    }
    const providerStatus = text(data.status);
    return {
      status: paystackStatus(providerStatus),
      amountCents: data.amount,
      currency: text(data.currency),
      providerPaymentId: text(data.id) || undefined,
      reference: text(data.reference),
      providerStatus,
      gatewayResponse: text(data.gateway_response),
      savedCard: savedCardFrom(data.authorization),
    };
  }

  async function verify(reference: string): Promise<PaystackTransaction> {
    if (!reference) throw new PaymentProviderError("No reference to verify with Paystack.");
    const answer = await call("GET", `/transaction/verify/${encodeURIComponent(reference)}`);
    const truth = transactionFrom(answer.data, reference);
    if (truth.reference && truth.reference !== reference) {
      throw new PaymentProviderError(`Paystack answered about transaction ${truth.reference}, not ${reference}`);
    }
    return { ...truth, reference };
  }

  /** A refund from Paystack's answer or list, when it is one we can name. */
  function refundFrom(data: unknown): (Contract.ProviderRefund & { amountCents: number; createdAt: number }) | undefined {
    if (!isObject(data)) return undefined;
    const id = text(data.id);
    if (!id || typeof data.amount !== "number") return undefined;
    const channel = text(data.channel) || (isObject(data.transaction) ? text(data.transaction.channel) : "");
    const route: Contract.RefundRoute = channel === "card" ? "card" : "payment-source";
    return { reference: id, route, amountCents: data.amount, createdAt: Date.parse(text(data.createdAt) || text(data.created_at)) };
  }

  async function refund(request: Contract.ProviderRefundRequest): Promise<Contract.ProviderRefund> {
    if (!Number.isInteger(request.amountCents) || request.amountCents <= 0) {
      throw new PaymentProviderError(`A refund must be a positive whole number of cents, not ${request.amountCents}`);
    }
    let answer: Json;
    try {
      answer = await call("POST", "/refund", {
        transaction: request.payment.reference,
        amount: request.amountCents,
        merchant_note: request.reason.slice(0, 200),
      });
    } catch (error) {
      // Unreachable, a 5xx or an unreadable answer: it may have been made.
      if (error instanceof PaymentProviderError && (error.status === undefined || error.status >= 500)) {
        throw new RefundOutcomeUnknown(error.message, error.status);
      }
      throw error;
    }
    const made = refundFrom(answer.data);
    if (!made) throw new RefundOutcomeUnknown("Paystack accepted the refund but its answer names no refund id");
    return { reference: made.reference, route: made.route };
  }

  async function chargeAuthorization(input: ChargeAuthorizationInput): Promise<PaystackTransaction> {
    if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) {
      throw new PaymentProviderError(`Amount must be a positive whole number of cents, not ${input.amountCents}`);
    }
    if (!input.authorizationCode.trim() || !input.email.trim() || !input.reference.trim()) {
      throw new PaymentProviderError("A saved-card charge needs the card's authorization code, the customer's e-mail and our reference.");
    }
    let answer: Json;
    try {
      answer = await call("POST", "/transaction/charge_authorization", {
        email: input.email.trim(),
        amount: input.amountCents,
        currency: "ZAR",
        authorization_code: input.authorizationCode.trim(),
        reference: input.reference,
      });
    } catch (error) {
      if (error instanceof PaymentProviderError && (error.status === undefined || error.status >= 500)) {
        throw new ChargeOutcomeUnknown(error.message, error.status);
      }
      throw error;
    }
    let result: PaystackTransaction;
    try {
      result = transactionFrom(answer.data, input.reference);
    } catch (error) {
      // accepted, but the answer does not say what became of it
      throw new ChargeOutcomeUnknown(error instanceof Error ? error.message : String(error));
    }
    if (result.currency && result.currency !== "ZAR") {
      throw new PaymentProviderError(`Paystack charged ${input.reference} in ${result.currency}, not ZAR`);
    }
    return { ...result, reference: result.reference || input.reference };
  }

  /** A token never appears in what we keep or log: Paystack's messages may echo it. */
  const hideCode = (message: string, code: string) => (code ? message.split(code).join("{authorization_code}") : message);

  /**
   * Renewals' view of a kept card (saved-card.ts). The charge's reference is ours, new per attempt,
   * and Paystack makes at most one transaction per reference, so a retry of the same request
   * cannot charge twice; a lost answer is `unknown`, looked up by that reference (verify).
   */
  const savedCards: SavedCardCharger = {
    provider: "paystack",
    cardOnEveryPayment: true,
    async charge(token, amountCents, _itemName, reference, payer) {
      const email = payer?.email?.trim();
      if (!email) return { outcome: "declined", reason: "no e-mail address for the card (Paystack charges a card by its e-mail)" };
      try {
        const result = await chargeAuthorization({ authorizationCode: token, email, amountCents, reference });
        if (result.status === "paid")
          return { outcome: "paid", ...(result.providerPaymentId ? { providerReference: result.providerPaymentId } : {}) };
        if (result.status === "failed")
          return { outcome: "declined", reason: hideCode(result.gatewayResponse || result.providerStatus || "declined", token) };
        // send_otp, pending, ongoing…: the transaction exists and may still succeed; its webhook or a verify says
        return { outcome: "unknown", reason: `Paystack has not finished the charge (${result.providerStatus || "no status"})` };
      } catch (error) {
        if (error instanceof ChargeOutcomeUnknown) return { outcome: "unknown", reason: hideCode(error.message, token) };
        if (error instanceof PaymentProviderError) return { outcome: "declined", reason: hideCode(error.message, token) };
        throw error;
      }
    },
    async cancel(token) {
      try {
        await call("POST", "/customer/authorization/deactivate", { authorization_code: token });
      } catch (error) {
        if (error instanceof PaymentProviderError) throw new PaymentProviderError(hideCode(error.message, token), error.status);
        throw error;
      }
    },
    async lookup(token, reference): Promise<SavedCardLookup> {
      if (!reference) return { active: true, status: "not asked: Paystack answers by the charge's reference" };
      let truth: PaystackTransaction;
      try {
        truth = await verify(reference);
      } catch (error) {
        // Paystack knows no transaction by this reference: the charge was never made
        if (error instanceof PaymentProviderError && (error.status === 400 || error.status === 404)) {
          return { active: true, status: "no such charge", charge: { outcome: "none", reason: hideCode(error.message, token) } };
        }
        if (error instanceof PaymentProviderError) throw new PaymentProviderError(hideCode(error.message, token), error.status);
        throw error;
      }
      const status = truth.providerStatus || "unknown";
      if (truth.status === "paid" && truth.currency === "ZAR") {
        return {
          active: true,
          status,
          charge: { outcome: "paid", amountCents: truth.amountCents, providerPaymentId: truth.providerPaymentId },
        };
      }
      if (truth.status === "failed")
        return { active: true, status, charge: { outcome: "declined", reason: truth.gatewayResponse || status } };
      return { active: true, status };
    },
  };

  return {
    name: "paystack",
    label: "Paystack",
    needsEmail: true,

    async startCheckout(input: Contract.CheckoutInput): Promise<Contract.Checkout> {
      if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) {
        throw new PaymentProviderError(`Amount must be a positive whole number of cents, not ${input.amountCents}`);
      }
      const email = input.email?.trim();
      if (!email) throw new PaymentProviderError("Paystack needs the buyer's e-mail address to start a checkout.");
      const answer = await call("POST", "/transaction/initialize", {
        email,
        amount: input.amountCents,
        currency: "ZAR",
        reference: input.reference,
        callback_url: input.urls.successUrl,
        metadata: { cancel_action: input.urls.cancelUrl, description: input.description },
      });
      const data = isObject(answer.data) ? answer.data : {};
      const url = text(data.authorization_url);
      if (!url) throw new PaymentProviderError("Paystack answered without an authorization_url");
      // The checkout page itself names this checkout (it ends with the access code): kept as the
      // payment's provider reference, so a customer who comes back is sent to it (resumeCheckout)
      // rather than a second initialize, which Paystack refuses for the same reference.
      return { kind: "redirect", url, providerReference: url };
    },

    resumeCheckout(providerReference: string): Contract.Checkout | null {
      return /^https?:\/\//.test(providerReference) ? { kind: "redirect", url: providerReference, providerReference } : null;
    },

    readNotification(request: Contract.NotificationRequest): Contract.ProviderNotification {
      // Which payment it claims to be about, only to tell the owner on that payment: nothing else is read unsigned.
      const claimed = /"reference"\s*:\s*"([A-Za-z0-9_.=-]{1,100})"/.exec(request.rawBody)?.[1];
      const given = headerValue(request.headers, "x-paystack-signature")?.trim().toLowerCase() ?? "";
      if (!given) throw new NotificationRefused("bad_signature", "The webhook carries no x-paystack-signature.", {}, claimed);
      const expected = Buffer.from(paystackSignature(secretKey, request.rawBody), "utf8");
      const received = Buffer.from(given, "utf8");
      if (received.length !== expected.length || !timingSafeEqual(received, expected)) {
        throw new NotificationRefused("bad_signature", "The webhook's x-paystack-signature does not match.", {}, claimed);
      }

      let parsed: unknown;
      try {
        parsed = JSON.parse(request.rawBody);
      } catch {
        throw new NotificationRefused("bad_input", "The webhook body is not JSON.");
      }
      const e = isObject(parsed) ? parsed : {};
      const data = isObject(e.data) ? e.data : {};
      const event = text(e.event);
      if (!event) throw new NotificationRefused("bad_input", "The webhook's event must be the event's name.", { event: "is required" });
      const reference = text(data.reference) || undefined;

      if (event !== PAYSTACK_PAID_EVENT) {
        // Another event (refund.processed, transfer.success, …): pending, named by providerStatus, for the caller to acknowledge and ignore.
        return {
          reference,
          providerPaymentId: text(data.id) ? `${event}:${text(data.id)}` : event,
          status: "pending",
          amountCents: typeof data.amount === "number" && Number.isInteger(data.amount) ? data.amount : 0,
          providerStatus: event,
          payload: { event, id: data.id, reference: data.reference, status: data.status },
          ignored: true,
        };
      }

      const problems: Record<string, string> = {};
      if (!text(data.id)) problems["data.id"] = "must be Paystack's transaction id";
      if (!reference) problems["data.reference"] = "must be our reference";
      if (typeof data.amount !== "number" || !Number.isInteger(data.amount) || data.amount < 0)
        problems["data.amount"] = "must be whole cents";
      if (data.currency !== "ZAR") problems["data.currency"] = "must be ZAR";
      if (Object.keys(problems).length) {
        const [first] = Object.entries(problems);
        throw new NotificationRefused("bad_input", `The webhook's ${first[0]} ${first[1]}.`, problems, reference);
      }
      const authorization = isObject(data.authorization) ? data.authorization : {};
      return {
        reference,
        providerPaymentId: text(data.id),
        // the event says the charge succeeded; the transaction's own status must agree
        status: paystackStatus(data.status) === "paid" ? "paid" : "pending",
        amountCents: data.amount as number,
        providerStatus: event,
        // no authorization_code here: it charges the card, and is kept only (encrypted) as savedCard
        payload: {
          event,
          id: data.id,
          reference,
          status: data.status,
          amount: data.amount,
          currency: data.currency,
          channel: data.channel,
          paid_at: data.paid_at ?? data.paidAt,
          gateway_response: data.gateway_response,
          card: authorization.last4
            ? { last4: authorization.last4, card_type: authorization.card_type, reusable: authorization.reusable }
            : undefined,
        },
        savedCard: savedCardFrom(data.authorization),
      };
    },

    /** Paystack's own record of the transaction, by our reference: success, by this transaction. */
    async confirm(notification: Contract.ProviderNotification, payment): Promise<Contract.PaylinkStatusResult> {
      const truth = await verify(payment.reference || notification.reference || "");
      if (truth.currency !== "ZAR") {
        throw new PaymentProviderError(`Paystack's transaction ${truth.reference} is in ${truth.currency || "no currency"}, not ZAR`);
      }
      if (notification.status === "paid" && truth.providerPaymentId && truth.providerPaymentId !== notification.providerPaymentId) {
        throw new PaymentProviderError(
          `Paystack's transaction ${truth.reference} is ${truth.providerPaymentId}, not the notified ${notification.providerPaymentId}`,
        );
      }
      return truth;
    },

    /** For the result page: a reference Paystack does not know yet is still pending. */
    async getStatus(payment): Promise<Contract.PaylinkStatusResult> {
      try {
        const truth = await verify(payment.reference);
        if (truth.currency !== "ZAR") return { ...truth, status: "failed" };
        return truth;
      } catch (error) {
        if (error instanceof PaymentProviderError && (error.status === 400 || error.status === 404)) {
          return { status: "pending", amountCents: 0 };
        }
        throw error;
      }
    },

    verify,
    refund,

    /**
     * After a lost answer: Paystack's refunds of this transaction (GET /refund?transaction=…), the
     * one of our amount, made since we sent ours (less clock slack), and not one recorded already.
     */
    async findRefund(request, context): Promise<Contract.ProviderRefund | null> {
      const transaction = request.payment.providerPaymentId ?? request.payment.reference;
      const query = new URLSearchParams({ transaction, perPage: "100" });
      const answer = await call("GET", `/refund?${query}`);
      if (!Array.isArray(answer.data)) throw new PaymentProviderError("Paystack's list of refunds is not a list");
      const since = context.sentAt.getTime() - REFUND_CLOCK_SLACK_MS;
      const ours = new Set([request.payment.reference, request.payment.providerPaymentId].filter(Boolean).map(String));
      const found = answer.data
        .filter((item) => {
          if (!isObject(item)) return false;
          const tx = isObject(item.transaction) ? item.transaction : undefined;
          const names = [text(tx?.id), text(tx?.reference), text(item.transaction), text(item.transaction_reference)].filter(Boolean);
          return names.some((name) => ours.has(name));
        })
        .map(refundFrom)
        .filter((r): r is NonNullable<ReturnType<typeof refundFrom>> => r !== undefined)
        .filter((r) => r.amountCents === request.amountCents && !context.known.includes(r.reference))
        .filter((r) => Number.isNaN(r.createdAt) || r.createdAt >= since)
        .sort((a, b) => (a.createdAt || 0) - (b.createdAt || 0));
      const first = found[0];
      return first ? { reference: first.reference, route: first.route } : null;
    },

    chargeAuthorization,
    savedCards,
  };
}
