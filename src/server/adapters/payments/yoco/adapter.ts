// Yoco Checkout (docs/payment-providers.md, following Yoco's developer docs: "Accept payments"
// (create a checkout), "Webhooks" (verifying them) and "Refund a checkout"): the checkout is made
// by API with a bearer secret key and an Idempotency-Key, amounts in cents; the customer goes to
// its redirectUrl. Webhooks are signed as Standard Webhooks: HMAC-SHA256 (base64), keyed with the
// base64 part of the whsec_ secret, over `webhook-id.webhook-timestamp.body`, in the
// `webhook-signature` header as `v1,<signature>` (several, space-separated, while a key rotates);
// a timestamp more than 3 minutes off is refused. Before capture the checkout is read back from
// Yoco (completed, our amount). Refunds go through Yoco's refund API.
import { createHmac, timingSafeEqual } from "node:crypto";
import { callProvider, jsonObject, PROVIDER_TIMEOUT_MS, reasonOf } from "../http";
import type * as Contract from "../provider";
import { NotificationRefused, PaymentProviderError, RefundOutcomeUnknown } from "../provider";
import { headerValue } from "../signing";

export const YOCO_CHECKOUTS_PATH = "/api/checkouts";
/** Standard Webhooks' tolerance: a delivery signed more than this far from now is refused. */
export const YOCO_WEBHOOK_TOLERANCE_S = 180;

/** The `webhook-signature` value for a delivery: `v1,` and the base64 HMAC-SHA256. */
export function yocoSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.trim().replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64")}`;
}

const CHECKOUT_STATUSES: Record<string, Contract.PaylinkStatus> = {
  completed: "paid",
  succeeded: "paid",
  cancelled: "cancelled",
  expired: "cancelled",
  failed: "failed",
};
const checkoutStatus = (word: unknown): Contract.PaylinkStatus => CHECKOUT_STATUSES[String(word ?? "").toLowerCase()] ?? "pending";

export interface YocoOptions {
  /** YOCO_API_URL: https://payments.yoco.com, or a fake of ours */
  apiUrl: string;
  secretKey: string;
  /** YOCO_WEBHOOK_SECRET: whsec_… */
  webhookSecret: string;
  timeoutMs?: number;
  /** the clock the webhook timestamp is checked against (tests) */
  now?: () => number;
}

export function createYocoProvider(options: YocoOptions): Contract.HostedProvider {
  const base = options.apiUrl.replace(/\/+$/, "");
  const timeoutMs = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const now = options.now ?? Date.now;

  async function call(method: "GET" | "POST", path: string, body?: unknown, idempotencyKey?: string): Promise<Record<string, unknown>> {
    const response = await callProvider(
      `${base}${path}`,
      {
        method,
        headers: {
          authorization: `Bearer ${options.secretKey.trim()}`,
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...(idempotencyKey ? { "Idempotency-Key": idempotencyKey } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      timeoutMs,
      (error) => new PaymentProviderError(`Yoco could not be reached (${method} ${path}): ${reasonOf(error)}`),
    );
    const text = await response.text().catch(() => "");
    if (!response.ok)
      throw new PaymentProviderError(`Yoco answered ${response.status} to ${method} ${path}: ${text.slice(0, 200)}`, response.status);
    const parsed = jsonObject(text);
    if (parsed) return parsed;
    throw new PaymentProviderError(`Yoco answered ${method} ${path} with something other than a JSON object`);
  }

  /** The checkout as Yoco holds it: its state, amount and the payment that completed it. */
  async function checkout(id: string): Promise<Contract.PaylinkStatusResult> {
    const answer = await call("GET", `${YOCO_CHECKOUTS_PATH}/${encodeURIComponent(id)}`);
    if (typeof answer.amount !== "number" || !Number.isInteger(answer.amount)) {
      throw new PaymentProviderError(`Yoco's checkout ${id} carries no whole-cents amount`);
    }
    if (answer.currency !== undefined && answer.currency !== "ZAR") {
      throw new PaymentProviderError(`Yoco's checkout ${id} is in ${String(answer.currency)}, not ZAR`);
    }
    return {
      status: checkoutStatus(answer.status),
      amountCents: answer.amount,
      providerPaymentId: typeof answer.paymentId === "string" ? answer.paymentId : undefined,
    };
  }

  /** Yoco's "Refund a checkout", keyed by our refund's id: a retry with the same key answers the first one's outcome. */
  async function refund(request: Contract.ProviderRefundRequest): Promise<Contract.ProviderRefund> {
    if (!request.payment.providerReference) throw new PaymentProviderError("This payment has no Yoco checkout id to refund.");
    let answer: Record<string, unknown>;
    try {
      answer = await call(
        "POST",
        `${YOCO_CHECKOUTS_PATH}/${encodeURIComponent(request.payment.providerReference)}/refund`,
        { amount: request.amountCents },
        request.refundId,
      );
    } catch (error) {
      // Unreachable, a 5xx or an unreadable answer: it may have been made.
      if (error instanceof PaymentProviderError && (error.status === undefined || error.status >= 500)) {
        throw new RefundOutcomeUnknown(error.message, error.status);
      }
      throw error;
    }
    const status = String(answer.status ?? "");
    if (!["succeeded", "pending"].includes(status) || typeof answer.refundId !== "string") {
      throw new PaymentProviderError(`Yoco did not accept the refund: ${String(answer.message ?? status) || "no reason given"}`);
    }
    return { reference: answer.refundId, route: "card" };
  }

  return {
    name: "yoco",
    label: "Yoco",

    async startCheckout(input: Contract.CheckoutInput): Promise<Contract.Checkout> {
      if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) {
        throw new PaymentProviderError(`Amount must be a positive whole number of cents, not ${input.amountCents}`);
      }
      // Our reference is the Idempotency-Key: a retried request makes no second checkout.
      const answer = await call(
        "POST",
        YOCO_CHECKOUTS_PATH,
        {
          amount: input.amountCents,
          currency: "ZAR",
          successUrl: input.urls.successUrl,
          cancelUrl: input.urls.cancelUrl,
          failureUrl: input.urls.failureUrl,
          externalId: input.reference,
          metadata: { reference: input.reference, description: input.description },
        },
        input.reference,
      );
      if (typeof answer.id !== "string" || !answer.id || typeof answer.redirectUrl !== "string" || !answer.redirectUrl) {
        throw new PaymentProviderError("Yoco answered without a checkout id and redirectUrl");
      }
      return { kind: "redirect", url: answer.redirectUrl, providerReference: answer.id };
    },

    readNotification(request: Contract.NotificationRequest): Contract.ProviderNotification {
      const id = headerValue(request.headers, "webhook-id");
      const timestamp = headerValue(request.headers, "webhook-timestamp");
      const signatures = headerValue(request.headers, "webhook-signature");
      const missing: Record<string, string> = {};
      if (!id) missing["webhook-id"] = "is required";
      if (!timestamp || !/^\d{1,12}$/.test(timestamp)) missing["webhook-timestamp"] = "must be seconds since 1970";
      if (!signatures) missing["webhook-signature"] = "is required";
      if (Object.keys(missing).length || !id || !timestamp || !signatures) {
        throw new NotificationRefused("bad_input", "The webhook lacks its signature headers.", missing);
      }
      const expected = Buffer.from(yocoSignature(options.webhookSecret, id, timestamp, request.rawBody).slice(3), "utf8");
      const matches = signatures.split(" ").some((entry) => {
        const [version, value] = entry.split(",", 2);
        const given = Buffer.from(value ?? "", "utf8");
        return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
      });
      // Which checkout it claims to be about, only to tell the owner on that payment: nothing else is read unsigned.
      const claimed = /"checkoutId"\s*:\s*"([A-Za-z0-9_-]{1,100})"/.exec(request.rawBody)?.[1];
      if (!matches) throw new NotificationRefused("bad_signature", "The webhook's signature does not match.", {}, undefined, claimed);
      if (Math.abs(now() / 1000 - Number(timestamp)) > YOCO_WEBHOOK_TOLERANCE_S) {
        throw new NotificationRefused("bad_signature", "The webhook's timestamp is more than 3 minutes off.", {}, undefined, claimed);
      }

      let event: unknown;
      try {
        event = JSON.parse(request.rawBody);
      } catch {
        throw new NotificationRefused("bad_input", "The webhook body is not JSON.");
      }
      const e = (event && typeof event === "object" ? event : {}) as Record<string, unknown>;
      const p = (e.payload && typeof e.payload === "object" ? e.payload : {}) as Record<string, unknown>;
      const metadata = (p.metadata && typeof p.metadata === "object" ? p.metadata : {}) as Record<string, unknown>;
      const problems: Record<string, string> = {};
      if (typeof e.type !== "string" || !e.type) problems.type = "must be the event type";
      if (typeof p.id !== "string" || !p.id) problems["payload.id"] = "must be Yoco's payment id";
      if (typeof p.amount !== "number" || !Number.isInteger(p.amount) || p.amount < 0) problems["payload.amount"] = "must be whole cents";
      if (p.currency !== "ZAR") problems["payload.currency"] = "must be ZAR";
      if (typeof metadata.checkoutId !== "string" || !metadata.checkoutId)
        problems["payload.metadata.checkoutId"] = "must be the checkout's id";
      if (Object.keys(problems).length) {
        const [first] = Object.entries(problems);
        throw new NotificationRefused("bad_input", `The webhook's ${first[0]} ${first[1]}.`, problems);
      }
      const type = e.type as string;
      return {
        checkoutId: metadata.checkoutId as string,
        providerPaymentId: p.id as string,
        status: type === "payment.succeeded" ? "paid" : type === "payment.failed" ? "failed" : "pending",
        providerStatus: type,
        amountCents: p.amount as number,
        payload: { webhookId: id, type, paymentId: p.id, amount: p.amount, currency: p.currency, checkoutId: metadata.checkoutId },
      };
    },

    /** Yoco's own record of the checkout: completed, by this payment. */
    async confirm(notification: Contract.ProviderNotification, payment): Promise<Contract.PaylinkStatusResult> {
      const truth = await checkout(payment.providerReference ?? notification.checkoutId ?? "");
      if (truth.providerPaymentId && truth.providerPaymentId !== notification.providerPaymentId) {
        throw new PaymentProviderError(
          `Yoco's checkout was completed by payment ${truth.providerPaymentId}, not ${notification.providerPaymentId}`,
        );
      }
      return { ...truth, providerPaymentId: notification.providerPaymentId };
    },

    async getStatus(payment): Promise<Contract.PaylinkStatusResult> {
      if (!payment.providerReference) return { status: "pending", amountCents: 0 };
      return checkout(payment.providerReference);
    },

    refund,

    /** The same request with the same Idempotency-Key: Yoco answers what became of the first. */
    async findRefund(request) {
      try {
        return await refund(request);
      } catch (error) {
        if (error instanceof RefundOutcomeUnknown) throw new PaymentProviderError(error.message, error.status);
        // a refusal now means the first was not made either
        return null;
      }
    },
  };
}
