// PayFast (docs/payment-providers.md, following PayFast's "Custom integration" and ITN pages):
// the customer's browser posts our signed fields to {PAYFAST_URL}/eng/process; PayFast then posts
// an ITN (Instant Transaction Notification) to our notify_url. An ITN is believed only when its
// MD5 signature matches (the posted pairs in order, `signature` left out, values PHP-urlencoded,
// `&passphrase=…` appended), it names our merchant, PayFast's own server answers VALID to the same
// pairs at /eng/query/validate, and (in the payments module) `amount_gross` is our amount to the
// cent. Refunds go through PayFast's API (api.payfast.co.za, "Refunds": query, then create, each
// signed with payfastApiSignature); it takes no idempotency key, so after a lost answer the
// amount it has left to refund is read again and compared with what it was before we asked.
import { createHash, timingSafeEqual } from "node:crypto";
import { centsFromDecimal, decimalFromCents, parseFormPairs, phpUrlencode } from "../form-encoding";
import { callProvider, jsonObject, PROVIDER_TIMEOUT_MS, reasonOf } from "../http";
import type * as Contract from "../provider";
import { NotificationRefused, PaymentProviderError, RefundOutcomeUnknown } from "../provider";

export const PAYFAST_PROCESS_PATH = "/eng/process";
export const PAYFAST_VALIDATE_PATH = "/eng/query/validate";
/** PayFast's API: GET {api}/refunds/query/{pf_payment_id}, POST {api}/refunds/{pf_payment_id} */
export const PAYFAST_REFUNDS_PATH = "/refunds";
export const PAYFAST_API_VERSION = "v1";
/** PayFast's API for kept cards: POST {api}/subscriptions/{token}/adhoc, PUT …/cancel, GET …/fetch */
export const PAYFAST_SUBSCRIPTIONS_PATH = "/subscriptions";

/** The answer to an ad hoc charge was lost (timeout, 5xx, unreadable): it may have been made. */
class ChargeOutcomeUnknown extends PaymentProviderError {}

/** A message that named a card's token (in the API path) with the token left out: messages are logged and shown. */
const hideToken = (message: string, token: string) => message.replaceAll(encodeURIComponent(token), "{token}").replaceAll(token, "{token}");

async function tokenSafe<T>(token: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new PaymentProviderError(hideToken(error.message, token), error.status);
    throw error;
  }
}

export interface PayfastOptions {
  /** PAYFAST_URL: https://www.payfast.co.za, https://sandbox.payfast.co.za, or a fake of ours */
  url: string;
  merchantId: string;
  merchantKey: string;
  passphrase: string;
  /** PAYFAST_API_URL: https://api.payfast.co.za, or a fake of ours */
  apiUrl?: string;
  timeoutMs?: number;
  /** the clock the API's timestamp header is taken from (tests) */
  now?: () => number;
}

/** PayFast's API timestamp: ISO-8601 in South African time, e.g. 2026-06-13T10:00:00+02:00. */
export function payfastTimestamp(at: number): string {
  return `${new Date(at + 2 * 3_600_000).toISOString().slice(0, 19)}+02:00`;
}

/** What GET /refunds/query/{id} says about a payment (PayFast's "Query a refund"). */
interface RefundQuery {
  status: string;
  availableCents: number;
  originalCents: number;
  fundingType: string;
  fullMethod: string;
  partialMethod: string;
  errors: string[];
}

/**
 * The text PayFast signs: `key=value` pairs joined by '&', values PHP-urlencoded. A checkout's
 * fields are trimmed and blank ones left out (PayFast's own form example); an ITN's are taken
 * exactly as posted. `signature` itself is never part of it.
 */
export function payfastParamString(pairs: readonly (readonly [string, string])[], options: { checkout?: boolean } = {}): string {
  return pairs
    .filter(([key]) => key !== "signature")
    .map(([key, value]) => [key, options.checkout ? value.trim() : value] as const)
    .filter(([, value]) => !options.checkout || value !== "")
    .map(([key, value]) => `${key}=${phpUrlencode(value)}`)
    .join("&");
}

/**
 * The signature of a call to PayFast's API (api.payfast.co.za, "Signature generation"): every
 * variable sent (the merchant-id, version and timestamp headers, the body's and query's fields) and
 * the passphrase, sorted by name, each as `name=urlencoded value` (an empty one too, as
 * `name=`) joined by '&', MD5 in lower-case hex: PHP's ksort + http_build_query, as PayFast's own
 * example and its PHP SDK's generateApiSignature do it.
 */
export function payfastApiSignature(variables: Record<string, string | number>, passphrase: string): string {
  const all: Record<string, string> = {};
  for (const [key, value] of Object.entries(variables)) if (key !== "signature") all[key] = String(value);
  const phrase = passphrase.trim();
  if (phrase) all.passphrase = phrase;
  const text = Object.keys(all)
    .sort()
    .map((key) => `${phpUrlencode(key)}=${phpUrlencode(all[key])}`)
    .join("&");
  return createHash("md5").update(text, "utf8").digest("hex");
}

/** MD5 of the param string with `&passphrase=…` appended (when there is one), lower-case hex. */
export function payfastSignature(pairs: readonly (readonly [string, string])[], passphrase: string, options: { checkout?: boolean } = {}) {
  const text = payfastParamString(pairs, options);
  const phrase = passphrase.trim();
  return createHash("md5")
    .update(phrase ? `${text}&passphrase=${phpUrlencode(phrase)}` : text, "utf8")
    .digest("hex");
}

const REQUIRED = ["m_payment_id", "pf_payment_id", "payment_status", "amount_gross", "merchant_id", "signature"] as const;
const PATTERNS: Record<(typeof REQUIRED)[number], [RegExp, string]> = {
  m_payment_id: [/^[A-Za-z0-9_-]{1,100}$/, "must be our payment reference"],
  pf_payment_id: [/^[A-Za-z0-9_-]{1,64}$/, "must be PayFast's payment id"],
  payment_status: [/^[A-Z_]{1,40}$/, "must be a PayFast payment status"],
  amount_gross: [/^\d{1,9}(\.\d{1,2})?$/, "must be an amount in rand, like 1450.00"],
  merchant_id: [/^[A-Za-z0-9]{1,40}$/, "must be a merchant id"],
  signature: [/^[0-9a-fA-F]{32}$/, "must be an MD5 signature"],
};

const STATUSES: Record<string, Contract.PaylinkStatus> = { COMPLETE: "paid", FAILED: "failed", CANCELLED: "cancelled", PENDING: "pending" };

export function createPayfastProvider(options: PayfastOptions): Contract.HostedProvider {
  const base = options.url.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const merchantId = options.merchantId.trim();

  const apiBase = (options.apiUrl ?? "https://api.payfast.co.za").replace(/\/+$/, "");
  const now = options.now ?? Date.now;

  /** One signed call to PayFast's API; the JSON answer, or throws (lost answers as `lost`). */
  async function api(
    method: "GET" | "POST" | "PUT",
    path: string,
    body: Record<string, string | number> | undefined,
    lost: (message: string, status?: number) => PaymentProviderError,
  ): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { "merchant-id": merchantId, version: PAYFAST_API_VERSION, timestamp: payfastTimestamp(now()) };
    const signature = payfastApiSignature({ ...headers, ...(body ?? {}) }, options.passphrase);
    const response = await callProvider(
      `${apiBase}${path}`,
      {
        method,
        headers: { ...headers, signature, accept: "application/json", ...(body ? { "content-type": "application/json" } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      },
      timeoutMs,
      (error) => lost(`PayFast's API did not answer (${method} ${path}): ${reasonOf(error)}`),
    );
    const text = await response.text().catch(() => "");
    const parsed = jsonObject(text);
    if (response.status >= 500) throw lost(`PayFast's API answered ${response.status} to ${method} ${path}`, response.status);
    const data = (parsed?.data && typeof parsed.data === "object" ? parsed.data : {}) as Record<string, unknown>;
    if (!response.ok) {
      const why = typeof data.message === "string" ? data.message : typeof parsed?.status === "string" ? parsed.status : text.slice(0, 200);
      throw new PaymentProviderError(`PayFast refused (${response.status}): ${why || "no reason given"}`, response.status);
    }
    if (!parsed) throw lost(`PayFast's API answered ${method} ${path} with something other than JSON`);
    return parsed;
  }

  async function queryRefund(pfPaymentId: string): Promise<RefundQuery> {
    const answer = await api(
      "GET",
      `${PAYFAST_REFUNDS_PATH}/query/${encodeURIComponent(pfPaymentId)}`,
      undefined,
      (m, s) => new PaymentProviderError(m, s),
    );
    // The query's fields, at the top level as PayFast documents them (or under data.response).
    const data = (answer.data && typeof answer.data === "object" ? answer.data : {}) as Record<string, unknown>;
    const q = (data.response && typeof data.response === "object" ? data.response : answer) as Record<string, unknown>;
    const cents = (v: unknown) => (typeof v === "number" ? Math.round(v) : /^\d+$/.test(String(v ?? "")) ? Number(v) : Number.NaN);
    const method = (v: unknown) => String((v && typeof v === "object" ? (v as Record<string, unknown>).method : "") ?? "");
    const result = {
      status: String(q.status ?? ""),
      availableCents: cents(q.amount_available_for_refund),
      originalCents: cents(q.amount_original),
      fundingType: String(q.funding_type ?? ""),
      fullMethod: method(q.refund_full),
      partialMethod: method(q.refund_partial),
      errors: Array.isArray(q.errors) ? q.errors.map(String) : [],
    };
    if (!Number.isInteger(result.availableCents))
      throw new PaymentProviderError("PayFast's refund query carried no amount available to refund");
    return result;
  }

  const pfIdOf = (request: Contract.ProviderRefundRequest) => {
    if (!request.payment.providerPaymentId)
      throw new PaymentProviderError("This payment has no PayFast payment id (pf_payment_id) to refund.");
    return request.payment.providerPaymentId;
  };
  const routeOf = (q: RefundQuery) => (/card/i.test(q.fundingType) ? "card" : "payment-source") as Contract.ProviderRefund["route"];

  return {
    name: "payfast",
    label: "PayFast",

    /** PayFast's "Query a refund": refundable, enough left, and to the payment's own source (no bank payout). */
    async prepareRefund(request) {
      const q = await queryRefund(pfIdOf(request));
      if (q.status !== "REFUNDABLE") {
        throw new PaymentProviderError(
          `PayFast will not refund this payment (${q.status || "no status"}${q.errors.length ? `: ${q.errors.join("; ")}` : ""}).`,
        );
      }
      if (q.availableCents < request.amountCents) {
        throw new PaymentProviderError(`PayFast has only R${decimalFromCents(q.availableCents)} left to refund on this payment.`);
      }
      const whole = request.amountCents === (Number.isInteger(q.originalCents) ? q.originalCents : request.payment.amountCents);
      const method = whole ? q.fullMethod : q.partialMethod;
      if (method !== "PAYMENT_SOURCE") {
        throw new PaymentProviderError(
          method === "BANK_PAYOUT"
            ? "PayFast can give this money back only as a bank payout, which needs the customer's bank details: refund it in PayFast's dashboard."
            : `PayFast offers no ${whole ? "full" : "partial"} refund of this payment through its API (${method || "no method"}).`,
        );
      }
      return { mark: `${q.availableCents}:${routeOf(q)}` };
    },

    async refund(request, mark) {
      const answer = await api(
        "POST",
        `${PAYFAST_REFUNDS_PATH}/${encodeURIComponent(pfIdOf(request))}`,
        // notify_buyer 0: the customer hears from us, once, in the business's words
        { amount: request.amountCents, reason: request.reason.slice(0, 255), notify_buyer: 0 },
        (m, s) => new RefundOutcomeUnknown(m, s),
      );
      const data = (answer.data && typeof answer.data === "object" ? answer.data : {}) as Record<string, unknown>;
      if (answer.status === "success" && data.response !== false) {
        return { reference: request.refundId, route: (mark?.split(":")[1] as Contract.ProviderRefund["route"]) || "payment-source" };
      }
      throw new PaymentProviderError(`PayFast did not accept the refund: ${String(data.message ?? answer.status ?? "no reason given")}`);
    },

    /** After a lost answer: the amount PayFast has left to refund fell by ours since we asked, or it did not. */
    async findRefund(request, context) {
      const before = Number(context.mark?.split(":")[0]);
      if (!Number.isInteger(before))
        throw new PaymentProviderError("No PayFast balance was read before this refund: check PayFast's dashboard.");
      const q = await queryRefund(pfIdOf(request));
      if (q.availableCents <= before - request.amountCents) {
        return { reference: request.refundId, route: (context.mark?.split(":")[1] as Contract.ProviderRefund["route"]) || routeOf(q) };
      }
      return null;
    },

    async startCheckout(input: Contract.CheckoutInput): Promise<Contract.Checkout> {
      // Zero only to keep a card: PayFast's ad hoc agreement may start at R0.00, creating the token
      // without a charge (its support article "Can I set up a tokenization payment agreement without
      // charging the customer?"; a bank that takes no zero authorisation sees R1-R5, returned to it).
      const least = input.saveCard ? 0 : 1;
      if (!Number.isInteger(input.amountCents) || input.amountCents < least) {
        throw new PaymentProviderError(`Amount must be a positive whole number of cents, not ${input.amountCents}`);
      }
      // PayFast's documented field order; the signature is over them in this order.
      const fields: [string, string][] = [
        ["merchant_id", merchantId],
        ["merchant_key", options.merchantKey.trim()],
        ["return_url", input.urls.successUrl],
        ["cancel_url", input.urls.cancelUrl],
        ["notify_url", input.urls.notifyUrl],
        ["m_payment_id", input.reference],
        ["amount", decimalFromCents(input.amountCents)],
        ["item_name", input.description.slice(0, 100)],
      ];
      // Tokenisation (PayFast's "Recurring billing", subscription_type 2): the card is kept and its
      // token comes in the ITN; we charge it ourselves (ad hoc) when a renewal is due.
      if (input.saveCard) fields.push(["subscription_type", "2"]);
      fields.push(["signature", payfastSignature(fields, options.passphrase, { checkout: true })]);
      return { kind: "form", action: `${base}${PAYFAST_PROCESS_PATH}`, fields };
    },

    readNotification(request: Contract.NotificationRequest): Contract.ProviderNotification {
      const pairs = parseFormPairs(request.rawBody);
      if (!pairs) throw new NotificationRefused("bad_input", "The ITN is not a form body.");
      const fields: Record<string, string> = {};
      const problems: Record<string, string> = {};
      for (const [key, value] of pairs) {
        if (key in fields) problems[key] = "is sent more than once";
        fields[key] = value;
      }
      for (const key of REQUIRED) {
        const [pattern, message] = PATTERNS[key];
        if (fields[key] === undefined || fields[key] === "") problems[key] = "is required";
        else if (!pattern.test(fields[key])) problems[key] = message;
      }
      // PayFast takes rand only; an ITN that names another currency is not one of ours.
      if (fields.currency !== undefined && fields.currency !== "ZAR") problems.currency = "must be ZAR";
      const reference = PATTERNS.m_payment_id[0].test(fields.m_payment_id ?? "") ? fields.m_payment_id : undefined;
      if (Object.keys(problems).length) {
        const [first] = Object.entries(problems);
        throw new NotificationRefused("bad_input", `The ITN's ${first[0]} ${first[1]}.`, problems, reference);
      }
      const expected = Buffer.from(payfastSignature(pairs, options.passphrase), "utf8");
      const given = Buffer.from(fields.signature.toLowerCase(), "utf8");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new NotificationRefused("bad_signature", "The ITN's signature does not match.", {}, reference);
      }
      if (fields.merchant_id !== merchantId) {
        throw new NotificationRefused("bad_signature", "The ITN names another merchant.", {}, reference);
      }
      const { signature: _signature, token, ...rest } = fields;
      // The card's token (tokenisation) is a secret: kept out of the payload we store and log.
      const payload = token ? { ...rest, token: "(kept)" } : rest;
      return {
        reference: fields.m_payment_id,
        providerPaymentId: fields.pf_payment_id,
        status: STATUSES[fields.payment_status] ?? "pending",
        providerStatus: fields.payment_status,
        amountCents: centsFromDecimal(fields.amount_gross) as number,
        payload,
        echo: payfastParamString(pairs),
        ...(token ? { savedCard: { token, label: "" } } : {}),
      };
    },

    savedCards: {
      provider: "payfast",
      /** a new card is kept by a R0.00 tokenisation checkout (see startCheckout) */
      cardSavingCents: 0,
      /** PayFast's "Ad hoc payments": POST /subscriptions/{token}/adhoc, amount in cents. */
      async charge(token, amountCents, itemName, reference) {
        if (!Number.isInteger(amountCents) || amountCents <= 0) return { outcome: "declined", reason: "no amount to charge" };
        try {
          const answer = await api(
            "POST",
            `${PAYFAST_SUBSCRIPTIONS_PATH}/${encodeURIComponent(token)}/adhoc`,
            { amount: amountCents, item_name: itemName.slice(0, 100), m_payment_id: reference },
            (m, s) => new ChargeOutcomeUnknown(m, s),
          );
          const data = (answer.data && typeof answer.data === "object" ? answer.data : {}) as Record<string, unknown>;
          if (answer.status === "success" && data.response === true) {
            return { outcome: "paid", ...(typeof data.pf_payment_id === "string" ? { providerReference: data.pf_payment_id } : {}) };
          }
          return { outcome: "declined", reason: String(data.message ?? answer.status ?? "declined") };
        } catch (error) {
          if (error instanceof ChargeOutcomeUnknown) return { outcome: "unknown", reason: hideToken(error.message, token) };
          if (error instanceof PaymentProviderError)
            return { outcome: "declined", reason: hideToken(error.message.replace(/^PayFast refused \(\d+\): /, ""), token) };
          throw error;
        }
      },
      async cancel(token) {
        await tokenSafe(token, () =>
          api(
            "PUT",
            `${PAYFAST_SUBSCRIPTIONS_PATH}/${encodeURIComponent(token)}/cancel`,
            undefined,
            (m, s) => new PaymentProviderError(m, s),
          ),
        );
      },
      async lookup(token) {
        const answer = await tokenSafe(token, () =>
          api(
            "GET",
            `${PAYFAST_SUBSCRIPTIONS_PATH}/${encodeURIComponent(token)}/fetch`,
            undefined,
            (m, s) => new PaymentProviderError(m, s),
          ),
        );
        const data = (answer.data && typeof answer.data === "object" ? answer.data : {}) as Record<string, unknown>;
        const r = (data.response && typeof data.response === "object" ? data.response : {}) as Record<string, unknown>;
        const status = String(r.status_text ?? r.status ?? "");
        return { active: /^(ACTIVE|1)$/i.test(status), status };
      },
    },

    /** PayFast's server confirms the ITN: the same pairs posted to /eng/query/validate answer VALID. */
    async confirm(notification: Contract.ProviderNotification): Promise<Contract.PaylinkStatusResult> {
      const body = notification.echo ?? "";
      const response = await callProvider(
        `${base}${PAYFAST_VALIDATE_PATH}`,
        { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body },
        timeoutMs,
        (error) => new PaymentProviderError(`PayFast's validate could not be reached: ${reasonOf(error)}`),
      );
      const text = (await response.text().catch(() => "")).trim();
      if (!response.ok) throw new PaymentProviderError(`PayFast's validate answered ${response.status}`, response.status);
      if (text !== "VALID") throw new PaymentProviderError(`PayFast's validate answered ${text.slice(0, 40) || "nothing"}, not VALID`);
      return { status: notification.status, amountCents: notification.amountCents };
    },
  };
}
