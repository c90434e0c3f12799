// Ozow instant EFT (docs/payment-providers.md, following Ozow's developer hub: "Post payment
// request", "Notification response" and "Get transaction by reference"): the customer's browser
// posts our fields, with HashCheck, to {OZOW_URL}; Ozow posts a notification to our NotifyUrl.
// Both hashes are SHA-512 (hex) of the fields in Ozow's documented order, concatenated, the
// private key appended and the whole lower-cased. A notification is believed only when its Hash
// matches, it names our site and ZAR, and Ozow's transaction status API (ApiKey header) shows that
// transaction for our reference with the same status and amount. Refunds go through Ozow's refund
// API ("Refunds integration": a bearer token from /token, then /secure/refunds/submit with its own
// HashCheck); it takes no idempotency key, so after a lost answer the site's refunds of that day
// (/secure/refunds/getrefunds) are searched for ours before anything is sent again.
import { createHash, timingSafeEqual } from "node:crypto";
import { centsFromDecimal, decimalFromCents, parseFormPairs } from "../form-encoding";
import { callProvider, PROVIDER_TIMEOUT_MS, reasonOf } from "../http";
import type * as Contract from "../provider";
import { NotificationRefused, PaymentProviderError, RefundOutcomeUnknown } from "../provider";

export const OZOW_STATUS_PATH = "/GetTransactionByReference";
export const OZOW_TOKEN_PATH = "/token";
export const OZOW_REFUND_SUBMIT_PATH = "/secure/refunds/submit";
export const OZOW_REFUND_LIST_PATH = "/secure/refunds/getrefunds";
/** A refund request's hashed fields, in order (the private key appended, as for payments). */
export const OZOW_REFUND_ORDER = ["TransactionId", "Amount", "RefundReason", "NotifyUrl"] as const;
/** Ozow's refund statuses that mean no money goes back (Failed, Cancelled, Returned, Invalid; by number or word). */
const DEAD_REFUND = new Set(["3", "4", "5", "-1", "failed", "cancelled", "returned", "invalid"]);

/** The SAST calendar day of a moment, as Ozow's refund list takes it: 2026/06/13. */
export function ozowRefundDate(at: Date): string {
  return new Date(at.getTime() + 2 * 3_600_000).toISOString().slice(0, 10).replaceAll("-", "/");
}

/** The payment request's fields, in hash order (HashCheck last, not hashed). */
export const OZOW_REQUEST_ORDER = [
  "SiteCode",
  "CountryCode",
  "CurrencyCode",
  "Amount",
  "TransactionReference",
  "BankReference",
  "CancelUrl",
  "ErrorUrl",
  "SuccessUrl",
  "NotifyUrl",
  "IsTest",
] as const;

/** The notification's fields, in hash order (Hash itself last, not hashed). */
export const OZOW_NOTIFICATION_ORDER = [
  "SiteCode",
  "TransactionId",
  "TransactionReference",
  "Amount",
  "Status",
  "Optional1",
  "Optional2",
  "Optional3",
  "Optional4",
  "Optional5",
  "CurrencyCode",
  "IsTest",
  "StatusMessage",
] as const;

/** SHA-512 hex of the values in order, the private key appended, lower-cased. */
export function ozowHash(values: readonly string[], privateKey: string): string {
  return createHash("sha512")
    .update(`${values.join("")}${privateKey}`.toLowerCase(), "utf8")
    .digest("hex");
}

const STATUSES: Record<string, Contract.PaylinkStatus> = {
  complete: "paid",
  cancelled: "cancelled",
  abandoned: "cancelled",
  error: "failed",
  pendinginvestigation: "pending",
  pending: "pending",
};
/** Ozow's status word, mapped to ours; anything unknown is still pending. */
export const ozowStatus = (word: unknown): Contract.PaylinkStatus => STATUSES[String(word ?? "").toLowerCase()] ?? "pending";

export interface OzowOptions {
  /** OZOW_URL: the payment page the form posts to */
  payUrl: string;
  /** OZOW_API_URL: the API host (transaction status) */
  apiUrl: string;
  siteCode: string;
  privateKey: string;
  apiKey: string;
  timeoutMs?: number;
}

interface OzowTransaction {
  transactionId: string;
  transactionReference: string;
  status: string;
  amountCents: number;
  currencyCode: string;
}

export function createOzowProvider(options: OzowOptions): Contract.HostedProvider {
  const payUrl = options.payUrl.replace(/\/+$/, "");
  const apiUrl = options.apiUrl.replace(/\/+$/, "");
  const siteCode = options.siteCode.trim();
  const privateKey = options.privateKey.trim();
  const timeoutMs = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;

  /** Every transaction Ozow has for our reference (GetTransactionByReference). */
  async function transactions(reference: string): Promise<OzowTransaction[]> {
    const url = `${apiUrl}${OZOW_STATUS_PATH}?siteCode=${encodeURIComponent(siteCode)}&transactionReference=${encodeURIComponent(reference)}`;
    const response = await callProvider(
      url,
      { headers: { ApiKey: options.apiKey.trim(), accept: "application/json" } },
      timeoutMs,
      (error) => new PaymentProviderError(`Ozow's status API could not be reached: ${reasonOf(error)}`),
    );
    if (!response.ok) throw new PaymentProviderError(`Ozow's status API answered ${response.status}`, response.status);
    let parsed: unknown;
    try {
      parsed = await response.json();
    } catch {
      throw new PaymentProviderError("Ozow's status API answered something other than JSON");
    }
    const list = Array.isArray(parsed) ? parsed : parsed && typeof parsed === "object" ? [parsed] : [];
    return list.flatMap((item: Record<string, unknown>) => {
      const amount = typeof item.amount === "number" ? Math.round(item.amount * 100) : centsFromDecimal(String(item.amount ?? ""));
      if (typeof item.transactionId !== "string" || amount === null) return [];
      return [
        {
          transactionId: item.transactionId,
          transactionReference: String(item.transactionReference ?? ""),
          status: String(item.status ?? ""),
          amountCents: amount,
          currencyCode: String(item.currencyCode ?? ""),
        },
      ];
    });
  }

  const truthOf = (t: OzowTransaction): Contract.PaylinkStatusResult => {
    if (t.currencyCode && t.currencyCode !== "ZAR")
      throw new PaymentProviderError(`Ozow reports the transaction in ${t.currencyCode}, not ZAR`);
    return { status: ozowStatus(t.status), amountCents: t.amountCents, providerPaymentId: t.transactionId };
  };

  /** The refund API's bearer token (POST /token with the ApiKey header), kept until a minute before it expires. */
  let token: { value: string; until: number } | null = null;
  async function bearer(): Promise<string> {
    if (token && token.until > Date.now()) return token.value;
    const response = await callProvider(
      `${apiUrl}${OZOW_TOKEN_PATH}`,
      {
        method: "POST",
        headers: { ApiKey: options.apiKey.trim(), accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "password", SiteCode: siteCode }).toString(),
      },
      timeoutMs,
      (error) => new PaymentProviderError(`Ozow's token service could not be reached: ${reasonOf(error)}`),
    );
    const answer = (await response.json().catch(() => null)) as Record<string, unknown> | null;
    if (!response.ok || typeof answer?.access_token !== "string") {
      throw new PaymentProviderError(
        `Ozow's token service answered ${response.status} without a token (is refunding enabled for the site?)`,
        response.status,
      );
    }
    const seconds = Number(answer.expires_in);
    token = { value: answer.access_token, until: Date.now() + (Number.isFinite(seconds) && seconds > 120 ? seconds - 60 : 60) * 1000 };
    return token.value;
  }

  const transactionIdOf = (request: Contract.ProviderRefundRequest) => {
    if (!request.payment.providerPaymentId) throw new PaymentProviderError("This payment has no Ozow TransactionId to refund.");
    return request.payment.providerPaymentId;
  };

  async function refund(request: Contract.ProviderRefundRequest): Promise<Contract.ProviderRefund> {
    const transactionId = transactionIdOf(request);
    const values: Record<(typeof OZOW_REFUND_ORDER)[number], string> = {
      TransactionId: transactionId,
      Amount: decimalFromCents(request.amountCents),
      RefundReason: request.reason.slice(0, 500),
      NotifyUrl: "",
    };
    const body = [
      {
        TransactionId: values.TransactionId,
        Amount: Number(values.Amount),
        RefundReason: values.RefundReason,
        HashCheck: ozowHash(
          OZOW_REFUND_ORDER.map((key) => values[key]),
          privateKey,
        ),
      },
    ];
    const auth = await bearer();
    const response = await callProvider(
      `${apiUrl}${OZOW_REFUND_SUBMIT_PATH}`,
      {
        method: "POST",
        headers: { authorization: `Bearer ${auth}`, accept: "application/json", "content-type": "application/json" },
        body: JSON.stringify(body),
      },
      timeoutMs,
      (error) => new RefundOutcomeUnknown(`Ozow's refund API did not answer: ${reasonOf(error)}`),
    );
    if (response.status === 401) token = null;
    if (response.status >= 500) throw new RefundOutcomeUnknown(`Ozow's refund API answered ${response.status}`, response.status);
    const text = await response.text().catch(() => "");
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // read below
    }
    if (!response.ok)
      throw new PaymentProviderError(
        `Ozow refused the refund (${response.status}): ${text.slice(0, 200) || "no reason given"}`,
        response.status,
      );
    const item = (Array.isArray(parsed) ? parsed[0] : parsed) as Record<string, unknown> | null | undefined;
    if (!item || typeof item !== "object") throw new RefundOutcomeUnknown("Ozow's refund API answered without a result for the refund");
    const refundId = item.refundId ?? item.RefundId;
    const errors = item.errors ?? item.Errors;
    if (typeof refundId === "string" && refundId && !/^0{8}-/.test(refundId)) return { reference: refundId, route: "bank-account" };
    const why = Array.isArray(errors) && errors.length ? errors.map(String).join("; ") : "no reason given";
    throw new PaymentProviderError(`Ozow did not accept the refund: ${why}`);
  }

  return {
    name: "ozow",
    label: "Ozow",

    /** Refunds need the payment's TransactionId and a token; both are had before anything is sent. */
    async prepareRefund(request) {
      transactionIdOf(request);
      await bearer();
      return { mark: null };
    },

    refund,

    /** After a lost answer: a refund of ours, for this amount, among the site's refunds of the days since it was sent. */
    async findRefund(request, context) {
      const days = new Set([ozowRefundDate(context.sentAt), ozowRefundDate(new Date())]);
      const auth = await bearer();
      for (const day of days) {
        const response = await callProvider(
          `${apiUrl}${OZOW_REFUND_LIST_PATH}?RefundDate=${encodeURIComponent(day)}`,
          { headers: { authorization: `Bearer ${auth}`, accept: "application/json" } },
          timeoutMs,
          (error) => new PaymentProviderError(`Ozow's refund list could not be reached: ${reasonOf(error)}`),
        );
        if (response.status === 401) token = null;
        if (!response.ok) throw new PaymentProviderError(`Ozow's refund list answered ${response.status}`, response.status);
        const list: unknown = await response.json().catch(() => null);
        if (!Array.isArray(list)) throw new PaymentProviderError("Ozow's refund list answered something other than a list");
        const found = list.find((entry: Record<string, unknown>) => {
          const amount = typeof entry.amount === "number" ? Math.round(entry.amount * 100) : centsFromDecimal(String(entry.amount ?? ""));
          return (
            String(entry.transactionReference ?? "") === request.payment.reference &&
            amount === request.amountCents &&
            !context.known.includes(String(entry.id)) &&
            !DEAD_REFUND.has(String(entry.status ?? "").toLowerCase())
          );
        }) as Record<string, unknown> | undefined;
        if (found) return { reference: String(found.id), route: "bank-account" };
      }
      return null;
    },

    async startCheckout(input: Contract.CheckoutInput): Promise<Contract.Checkout> {
      if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) {
        throw new PaymentProviderError(`Amount must be a positive whole number of cents, not ${input.amountCents}`);
      }
      const values: Record<(typeof OZOW_REQUEST_ORDER)[number], string> = {
        SiteCode: siteCode,
        CountryCode: "ZA",
        CurrencyCode: "ZAR",
        Amount: decimalFromCents(input.amountCents),
        TransactionReference: input.reference,
        // What the customer's bank statement shows (Ozow allows 20 characters): our reference's random tail.
        BankReference: `STRMDSK ${input.reference.split("_").at(-1) ?? ""}`.slice(0, 20),
        CancelUrl: input.urls.cancelUrl,
        ErrorUrl: input.urls.failureUrl,
        SuccessUrl: input.urls.successUrl,
        NotifyUrl: input.urls.notifyUrl,
        IsTest: "false",
      };
      const fields: [string, string][] = OZOW_REQUEST_ORDER.map((key) => [key, values[key]]);
      fields.push([
        "HashCheck",
        ozowHash(
          fields.map(([, v]) => v),
          privateKey,
        ),
      ]);
      return { kind: "form", action: payUrl, fields };
    },

    readNotification(request: Contract.NotificationRequest): Contract.ProviderNotification {
      const pairs = parseFormPairs(request.rawBody);
      if (!pairs) throw new NotificationRefused("bad_input", "The notification is not a form body.");
      const fields: Record<string, string> = {};
      const problems: Record<string, string> = {};
      for (const [key, value] of pairs) {
        if (key in fields) problems[key] = "is sent more than once";
        fields[key] = value;
      }
      for (const key of ["SiteCode", "TransactionId", "TransactionReference", "Amount", "Status", "CurrencyCode", "Hash"]) {
        if (!fields[key]) problems[key] = "is required";
      }
      if (fields.Amount && centsFromDecimal(fields.Amount) === null) problems.Amount = "must be an amount in rand, like 1450.00";
      if (fields.TransactionReference && !/^[A-Za-z0-9_-]{1,100}$/.test(fields.TransactionReference)) {
        problems.TransactionReference = "must be our payment reference";
      }
      if (fields.Hash && !/^[0-9a-fA-F]{128}$/.test(fields.Hash)) problems.Hash = "must be a SHA-512 hash";
      if (fields.CurrencyCode && fields.CurrencyCode !== "ZAR") problems.CurrencyCode = "must be ZAR";
      if (fields.IsTest && !/^(true|false)$/i.test(fields.IsTest)) problems.IsTest = "must be true or false";
      const reference = /^[A-Za-z0-9_-]{1,100}$/.test(fields.TransactionReference ?? "") ? fields.TransactionReference : undefined;
      if (Object.keys(problems).length) {
        const [first] = Object.entries(problems);
        throw new NotificationRefused("bad_input", `The notification's ${first[0]} ${first[1]}.`, problems, reference);
      }
      const expected = Buffer.from(
        ozowHash(
          OZOW_NOTIFICATION_ORDER.map((key) => fields[key] ?? ""),
          privateKey,
        ),
        "utf8",
      );
      const given = Buffer.from(fields.Hash.toLowerCase(), "utf8");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new NotificationRefused("bad_signature", "The notification's Hash does not match.", {}, reference);
      }
      if (fields.SiteCode !== siteCode)
        throw new NotificationRefused("bad_signature", "The notification names another site.", {}, reference);
      // A test transaction (IsTest) moves no money: never captured, noted as what it is.
      const test = /^true$/i.test(fields.IsTest ?? "");
      const { Hash: _hash, ...payload } = fields;
      return {
        reference: fields.TransactionReference,
        providerPaymentId: fields.TransactionId,
        status: test ? "pending" : ozowStatus(fields.Status),
        providerStatus: test ? `${fields.Status} (a test transaction)` : fields.Status,
        amountCents: centsFromDecimal(fields.Amount) as number,
        payload,
      };
    },

    /** Ozow's status API shows this very transaction for our reference, with the same status. */
    async confirm(notification: Contract.ProviderNotification, payment): Promise<Contract.PaylinkStatusResult> {
      const found = (await transactions(payment.reference)).find(
        (t) => t.transactionId.toLowerCase() === notification.providerPaymentId.toLowerCase(),
      );
      if (!found)
        throw new PaymentProviderError(`Ozow's status API knows no transaction ${notification.providerPaymentId} for this payment`);
      return truthOf(found);
    },

    async getStatus(payment): Promise<Contract.PaylinkStatusResult> {
      const all = await transactions(payment.reference);
      const chosen = all.find((t) => ozowStatus(t.status) === "paid") ?? all.at(-1);
      if (!chosen) return { status: "pending", amountCents: 0 };
      return truthOf(chosen);
    },
  };
}
