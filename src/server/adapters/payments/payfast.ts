// PayFast (docs/payment-providers.md, following PayFast's "Custom integration" and ITN pages):
// the customer's browser posts our signed fields to {PAYFAST_URL}/eng/process; PayFast then posts
// an ITN (Instant Transaction Notification) to our notify_url. An ITN is believed only when its
// MD5 signature matches (the posted pairs in order, `signature` left out, values PHP-urlencoded,
// `&passphrase=…` appended), it names our merchant, PayFast's own server answers VALID to the same
// pairs at /eng/query/validate, and (in the payments module) `amount_gross` is our amount to the
// cent. PayFast publishes no refund API for once-off payments: refunds are recorded as manual.
import { createHash, timingSafeEqual } from "node:crypto";
import { centsFromDecimal, decimalFromCents, parseFormPairs, phpUrlencode } from "./form-encoding";
import {
  type Checkout,
  type CheckoutInput,
  type HostedProvider,
  NotificationRefused,
  type NotificationRequest,
  type PaylinkStatus,
  type PaylinkStatusResult,
  PaymentProviderError,
  type ProviderNotification,
} from "./provider";

export const PAYFAST_PROCESS_PATH = "/eng/process";
export const PAYFAST_VALIDATE_PATH = "/eng/query/validate";
const DEFAULT_TIMEOUT_MS = 10_000;

export interface PayfastOptions {
  /** PAYFAST_URL: https://www.payfast.co.za, https://sandbox.payfast.co.za, or a fake of ours */
  url: string;
  merchantId: string;
  merchantKey: string;
  passphrase: string;
  timeoutMs?: number;
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
 * the passphrase, sorted by name, the non-empty ones as `name=urlencoded value` joined by '&', MD5
 * in lower-case hex: PHP's ksort + http_build_query, as PayFast's own example does it.
 */
export function payfastApiSignature(variables: Record<string, string | number>, passphrase: string): string {
  const all: Record<string, string> = {};
  for (const [key, value] of Object.entries(variables)) if (key !== "signature") all[key] = String(value);
  const phrase = passphrase.trim();
  if (phrase) all.passphrase = phrase;
  const text = Object.keys(all)
    .sort()
    .filter((key) => all[key] !== "")
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

const STATUSES: Record<string, PaylinkStatus> = { COMPLETE: "paid", FAILED: "failed", CANCELLED: "cancelled", PENDING: "pending" };

export function createPayfastProvider(options: PayfastOptions): HostedProvider {
  const base = options.url.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const merchantId = options.merchantId.trim();

  return {
    name: "payfast",
    label: "PayFast",

    async startCheckout(input: CheckoutInput): Promise<Checkout> {
      if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) {
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
      fields.push(["signature", payfastSignature(fields, options.passphrase, { checkout: true })]);
      return { kind: "form", action: `${base}${PAYFAST_PROCESS_PATH}`, fields };
    },

    readNotification(request: NotificationRequest): ProviderNotification {
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
      const { signature: _signature, ...payload } = fields;
      return {
        reference: fields.m_payment_id,
        providerPaymentId: fields.pf_payment_id,
        status: STATUSES[fields.payment_status] ?? "pending",
        providerStatus: fields.payment_status,
        amountCents: centsFromDecimal(fields.amount_gross) as number,
        payload,
        echo: payfastParamString(pairs),
      };
    },

    /** PayFast's server confirms the ITN: the same pairs posted to /eng/query/validate answer VALID. */
    async confirm(notification: ProviderNotification): Promise<PaylinkStatusResult> {
      const body = notification.echo ?? "";
      let response: Response;
      try {
        response = await fetch(`${base}${PAYFAST_VALIDATE_PATH}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new PaymentProviderError(
          `PayFast's validate could not be reached: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const text = (await response.text().catch(() => "")).trim();
      if (!response.ok) throw new PaymentProviderError(`PayFast's validate answered ${response.status}`, response.status);
      if (text !== "VALID") throw new PaymentProviderError(`PayFast's validate answered ${text.slice(0, 40) || "nothing"}, not VALID`);
      return { status: notification.status, amountCents: notification.amountCents };
    },
  };
}
