// A local stand-in for PayFast, for tests and the browser journey. It checks what PayFast checks
// on /eng/process (our merchant id and key, the MD5 signature over the posted fields), shows a
// payment page whose buttons complete or cancel, sends signed ITNs to the notify_url, and answers
// /eng/query/validate: VALID for exactly the pairs of an ITN it sent, else INVALID, or whatever a
// test says (INVALID, or down). It also plays PayFast's API for refunds (use its url as
// PAYFAST_API_URL): every call's header signature is checked; GET /refunds/query/{pf_payment_id}
// and POST /refunds/{pf_payment_id} keep a ledger per payment, and a test may make a refund be
// refused, fail with PayFast down, be made with its answer lost (the connection cut) or slow, or
// make PayFast offer only a bank payout. A checkout with subscription_type=2 (tokenisation) keeps
// the card: its ITN carries a `token`, and the subscriptions API charges it (POST
// /subscriptions/{token}/adhoc: made, declined on request, slow or 5xx), cancels it (PUT …/cancel)
// and tells its state (GET …/fetch); a charge made is notified by ITN to `adhocNotifyUrl` when set.
import { createHash, randomInt, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fakeFormBody, fakeParseForm, fakePhpUrlencode } from "../fake-form-protocol";
import { closeFakeServer, fakePost } from "../fake-http";

// PayFast's protocol as its documentation states it (https://developers.payfast.co.za/docs, "Step 1:
// Create your checkout form", "Step 2: Create security signature", "Step 4: Confirm payment" (ITN);
// https://developers.payfast.co.za/api, "Authentication" / "Signature generation"), written here
// from that text and sharing nothing with our adapter (adapter.ts), so a signing mistake there is
// refused here as PayFast would refuse it.

const PROCESS_PATH = "/eng/process";
const VALIDATE_PATH = "/eng/query/validate";
const REFUNDS_PATH = "/refunds";
const SUBSCRIPTIONS_PATH = "/subscriptions";

/**
 * The checkout form's fields in the order PayFast's documentation lists them (and its PHP SDK's
 * Auth::generateSignature): a checkout's signature is over the non-blank ones in this order (not
 * the order posted, not sorted).
 */
const CHECKOUT_FIELD_ORDER = [
  "merchant_id",
  "merchant_key",
  "return_url",
  "cancel_url",
  "notify_url",
  "notify_method",
  "name_first",
  "name_last",
  "email_address",
  "cell_number",
  "m_payment_id",
  "amount",
  "item_name",
  "item_description",
  "custom_int1",
  "custom_int2",
  "custom_int3",
  "custom_int4",
  "custom_int5",
  "custom_str1",
  "custom_str2",
  "custom_str3",
  "custom_str4",
  "custom_str5",
  "email_confirmation",
  "confirmation_address",
  "currency",
  "payment_method",
  "subscription_type",
  "billing_date",
  "recurring_amount",
  "frequency",
  "cycles",
  "subscription_notify_email",
  "subscription_notify_webhook",
  "subscription_notify_buyer",
] as const;

const md5Hex = (text: string) => createHash("md5").update(text, "utf8").digest("hex");
/** "If a passphrase has been set … it must be included": `&passphrase=…`, urlencoded, trimmed. */
const withPassphrase = (text: string, passphrase: string) =>
  passphrase.trim() ? `${text}&passphrase=${fakePhpUrlencode(passphrase.trim())}` : text;

/** Step 2: the checkout's non-blank fields, trimmed, in the documented order, `name=urlencode(value)` joined by '&'. */
export function fakePayfastCheckoutSignature(posted: Map<string, string>, passphrase: string): string {
  const text = CHECKOUT_FIELD_ORDER.filter((name) => (posted.get(name) ?? "").trim() !== "")
    .map((name) => `${name}=${fakePhpUrlencode((posted.get(name) ?? "").trim())}`)
    .join("&");
  return md5Hex(withPassphrase(text, passphrase));
}

/** The text an ITN is signed over: every posted pair but `signature`, in the order posted, blanks included. */
function itnParamString(pairs: readonly (readonly [string, string])[]): string {
  return pairs
    .filter(([name]) => name !== "signature")
    .map(([name, value]) => `${name}=${fakePhpUrlencode(value)}`)
    .join("&");
}

/** Step 4: an ITN's signature, MD5 of its param string with the passphrase appended. */
export function fakePayfastItnSignature(pairs: readonly (readonly [string, string])[], passphrase: string): string {
  return md5Hex(withPassphrase(itnParamString(pairs), passphrase));
}

/**
 * API signature ("Authentication"; PayFast's PHP SDK, Auth::generateApiSignature): every header and
 * body variable and the passphrase, sorted by name (PHP's ksort), each as `name=urlencode(value)`,
 * an empty value too (PHP's http_build_query keeps it as `name=`), joined by '&'; MD5, hex.
 */
export function fakePayfastApiSignature(variables: Record<string, string>, passphrase: string): string {
  const all: Record<string, string> = { ...variables };
  if (passphrase.trim()) all.passphrase = passphrase.trim();
  const text = Object.keys(all)
    .filter((name) => name !== "signature")
    .sort()
    .map((name) => `${fakePhpUrlencode(name)}=${fakePhpUrlencode(all[name])}`)
    .join("&");
  return md5Hex(text);
}

/** How the fake's refund API behaves for the next calls. */
export type FakePayfastRefundMode = "ok" | "refuse" | "down" | "lost" | "slow";

export interface FakePayfastPayment {
  pfPaymentId: string;
  /** the fields our checkout posted, in order */
  fields: Record<string, string>;
  status: "PENDING" | "COMPLETE" | "CANCELLED" | "FAILED";
  /** the kept card's token (a checkout with subscription_type=2, or an ad hoc charge of it) */
  token?: string;
}

/** How the ad hoc charge answers: made (ok), declined (400, nothing charged), 503 not made (down), made and answered after adhocDelayMs (slow). */
export type FakePayfastAdhocMode = "ok" | "decline" | "down" | "slow";

export interface FakePayfastCard {
  status: "ACTIVE" | "CANCELLED";
  /** ad hoc charges made: our m_payment_id and cents */
  charges: { reference: string; amountCents: number; itemName: string }[];
}

export interface FakePayfast {
  /** http://127.0.0.1:<port>: use as PAYFAST_URL */
  url: string;
  /** by our m_payment_id */
  payments: Map<string, FakePayfastPayment>;
  /** what /eng/query/validate answers: by the pairs (default), always INVALID, or a 503 */
  validate: "check" | "INVALID" | "down";
  /** how many validations were asked */
  readonly validations: number;
  /** validate answers after this long (a slow PayFast) */
  validateDelayMs: number;
  /** refunds made, by pf_payment_id (cents) */
  refunds: Map<string, { amountCents: number; reason: string }[]>;
  /** POST /refunds: made and answered (ok), refused (400), 503 not made (down), made with the connection cut (lost), made and answered after refundDelayMs (slow) */
  refundMode: FakePayfastRefundMode;
  refundDelayMs: number;
  /** GET /refunds/query answers 503 */
  queryDown: boolean;
  /** the payment can be refunded only by bank payout (an EFT-paid payment) */
  payoutOnly: boolean;
  /** API calls so far, by "METHOD path" */
  readonly apiCalls: string[];
  /** kept cards by token */
  cards: Map<string, FakePayfastCard>;
  adhocMode: FakePayfastAdhocMode;
  adhocDelayMs: number;
  /** the declined charge's reason */
  declineReason: string;
  /** where the ITN of an ad hoc charge is posted (PayFast uses the account's notify URL); none: no ITN */
  adhocNotifyUrl: string;
  /** resolves once every ITN of an ad hoc charge sent so far has been answered */
  adhocItnsSent(): Promise<void>;
  /** the ITN PayFast would post for this payment (signed), with fields a test may change */
  itnFor(
    reference: string,
    options?: {
      status?: FakePayfastPayment["status"];
      amountGross?: string;
      /** another pf_payment_id (a replay of one payment's id on another) */
      pfPaymentId?: string;
      extra?: [string, string][];
      signature?: string;
    },
  ): { url: string; body: string };
  /** POST that ITN; resolves to our server's status, body and how long it took */
  sendItn(
    reference: string,
    options?: Parameters<FakePayfast["itnFor"]>[1] & { origin?: string },
  ): Promise<{ status: number; body: string; ms: number }>;
  close(): Promise<void>;
}

export async function startFakePayfast(options: {
  merchantId: string;
  merchantKey: string;
  passphrase: string;
  port?: number;
}): Promise<FakePayfast> {
  const payments = new Map<string, FakePayfastPayment>();
  /** param strings of the ITNs sent: what validate recognises */
  const sent = new Set<string>();

  const html = (res: ServerResponse, status: number, title: string, body: string) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head><body><main>${body}</main></body></html>`,
    );
  };
  const escapeHtml = (t: string) => t.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] as string);

  const itnFor: FakePayfast["itnFor"] = (reference, opts = {}) => {
    const payment = payments.get(reference);
    if (!payment) throw new Error(`fake PayFast: no payment ${reference}`);
    const gross = opts.amountGross ?? payment.fields.amount;
    const fee = (Math.round(Number(gross) * 100 * 0.035) / 100).toFixed(2);
    // PayFast's ITN field order, blank optional fields included (they are signed too).
    const pairs: [string, string][] = [
      ["m_payment_id", reference],
      ["pf_payment_id", opts.pfPaymentId ?? payment.pfPaymentId],
      ["payment_status", opts.status ?? (payment.status === "PENDING" ? "COMPLETE" : payment.status)],
      ["item_name", payment.fields.item_name ?? ""],
      ["item_description", ""],
      ["amount_gross", gross],
      ["amount_fee", `-${fee}`],
      ["amount_net", (Number(gross) - Number(fee)).toFixed(2)],
      ["custom_str1", ""],
      ["name_first", "Test"],
      ["name_last", "Buyer & Co"],
      ["email_address", ""],
      ["merchant_id", options.merchantId],
      ...(payment.token ? ([["token", payment.token]] as [string, string][]) : []),
      ...(opts.extra ?? []),
    ];
    sent.add(itnParamString(pairs));
    pairs.push(["signature", opts.signature ?? fakePayfastItnSignature(pairs, options.passphrase)]);
    return { url: payment.fields.notify_url, body: fakeFormBody(pairs) };
  };

  const sendItn: FakePayfast["sendItn"] = async (reference, opts = {}) => {
    const itn = itnFor(reference, opts);
    const target = new URL(itn.url);
    const url = opts.origin ? `${opts.origin.replace(/\/$/, "")}${target.pathname}${target.search}` : itn.url;
    const started = Date.now();
    const answer = await fakePost(url, { "content-type": "application/x-www-form-urlencoded" }, itn.body);
    return { ...answer, ms: Date.now() - started };
  };

  const state = {
    validate: "check" as FakePayfast["validate"],
    validations: 0,
    validateDelayMs: 0,
    refundMode: "ok" as FakePayfastRefundMode,
    refundDelayMs: 0,
    queryDown: false,
    payoutOnly: false,
    adhocMode: "ok" as FakePayfastAdhocMode,
    adhocDelayMs: 0,
    declineReason: "Insufficient funds",
    adhocNotifyUrl: "",
  };
  const cards = new Map<string, FakePayfastCard>();
  const adhocItns = new Set<Promise<unknown>>();
  const refunds = new Map<string, { amountCents: number; reason: string }[]>();
  const apiCalls: string[] = [];
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const failed = (res: ServerResponse, status: number, message: string) =>
    json(res, status, { code: status, status: "failed", data: { response: false, message } });

  /** PayFast's API: signed headers, then the refund query and create. */
  const handleApi = async (req: IncomingMessage, res: ServerResponse, path: string, raw: string) => {
    apiCalls.push(`${req.method} ${path}`);
    const header = (name: string) => String(req.headers[name] ?? "");
    let body: Record<string, string | number> = {};
    if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, string | number>;
      } catch {
        return failed(res, 400, "Required variables not present in request");
      }
    }
    if (header("merchant-id") !== options.merchantId) return failed(res, 401, "Merchant not found");
    if (header("version") !== "v1") return failed(res, 400, "API version is not valid");
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(header("timestamp"))) return failed(res, 400, "Required variables not present in request");
    const signed: Record<string, string> = {
      "merchant-id": header("merchant-id"),
      version: header("version"),
      timestamp: header("timestamp"),
    };
    for (const [name, value] of Object.entries(body)) signed[name] = String(value);
    if (header("signature") !== fakePayfastApiSignature(signed, options.passphrase))
      return failed(res, 401, "Merchant authorisation failed");

    const sub = /^\/subscriptions\/([^/]+)\/(adhoc|cancel|fetch)$/.exec(path);
    if (sub) return handleCard(req, res, decodeURIComponent(sub[1]), sub[2], body);

    const query = /^\/refunds\/query\/([^/]+)$/.exec(path);
    const create = /^\/refunds\/([^/]+)$/.exec(path);
    const pfId = decodeURIComponent((query ?? create)?.[1] ?? "");
    const payment = [...payments.values()].find((p) => p.pfPaymentId === pfId);
    if (!payment || !(query || create)) return failed(res, 404, "Service / endpoint not found");
    const original = Math.round(Number(payment.fields.amount) * 100);
    const made = refunds.get(pfId) ?? [];
    const available = original - made.reduce((sum, r) => sum + r.amountCents, 0);

    if (req.method === "GET" && query) {
      if (state.queryDown) return failed(res, 503, "Communication Failure");
      const method = state.payoutOnly ? "BANK_PAYOUT" : "PAYMENT_SOURCE";
      return json(res, 200, {
        token: `tok-${pfId}`,
        funding_type: state.payoutOnly ? "Instant EFT" : "Credit Card",
        amount_original: original,
        amount_available_for_refund: available,
        status: available > 0 ? "REFUNDABLE" : "COMPLETED",
        errors: [],
        refund_full: { method: available === original ? method : "NOT_AVAILABLE" },
        refund_partial: { method },
        bank_names: state.payoutOnly ? [{ bank_name: "FNB", label: "FNB" }] : [],
      });
    }
    if (req.method === "POST" && create) {
      const amount = Number(body.amount);
      if (state.refundMode === "down") return failed(res, 503, "Communication Failure");
      if (state.refundMode === "refuse") return failed(res, 400, "The refund could not be processed at this time");
      if (!Number.isInteger(amount) || amount <= 0 || amount > available) return failed(res, 400, "Invalid refund amount");
      if (String(body.reason ?? "").length < 3) return failed(res, 400, "Required variables not present in request");
      made.push({ amountCents: amount, reason: String(body.reason) });
      refunds.set(pfId, made);
      if (state.refundMode === "lost") {
        res.socket?.destroy();
        return;
      }
      if (state.refundMode === "slow") await new Promise((r) => setTimeout(r, state.refundDelayMs));
      return json(res, 200, { code: 200, status: "success", data: { response: true, message: "Success" } });
    }
    return failed(res, 404, "Service / endpoint not found");
  };

  /** PayFast's subscriptions API for a tokenised card (the signature is checked already). */
  const handleCard = async (
    req: IncomingMessage,
    res: ServerResponse,
    token: string,
    action: string,
    body: Record<string, string | number>,
  ) => {
    const card = cards.get(token);
    if (!card) return failed(res, 404, "Subscription not found");
    if (action === "fetch" && req.method === "GET") {
      return json(res, 200, {
        code: 200,
        status: "success",
        data: { response: { token, status_text: card.status, status: card.status === "ACTIVE" ? 1 : 2 } },
      });
    }
    if (action === "cancel" && req.method === "PUT") {
      card.status = "CANCELLED";
      return json(res, 200, { code: 200, status: "success", data: { response: true, message: "Subscription cancelled" } });
    }
    if (action !== "adhoc" || req.method !== "POST") return failed(res, 404, "Service / endpoint not found");
    if (card.status !== "ACTIVE") return failed(res, 400, "Subscription is cancelled");
    const amount = Number(body.amount);
    if (!Number.isInteger(amount) || amount <= 0 || !String(body.item_name ?? ""))
      return failed(res, 400, "Required variables not present in request");
    if (state.adhocMode === "down") return failed(res, 503, "Communication Failure");
    if (state.adhocMode === "decline") return failed(res, 400, state.declineReason);
    const reference = String(body.m_payment_id ?? randomUUID());
    card.charges.push({ reference, amountCents: amount, itemName: String(body.item_name) });
    const pfPaymentId = String(randomInt(1_000_000, 9_999_999));
    const amountText = (amount / 100).toFixed(2);
    payments.set(reference, {
      pfPaymentId,
      fields: { m_payment_id: reference, amount: amountText, item_name: String(body.item_name), notify_url: state.adhocNotifyUrl },
      status: "COMPLETE",
      token,
    });
    if (state.adhocMode === "slow") await new Promise((r) => setTimeout(r, state.adhocDelayMs));
    json(res, 200, {
      code: 200,
      status: "success",
      data: { response: true, message: "Transaction was successful(00)", pf_payment_id: pfPaymentId },
    });
    if (state.adhocNotifyUrl) {
      const sending = sendItn(reference).catch(() => undefined);
      adhocItns.add(sending);
      void sending.finally(() => adhocItns.delete(sending));
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const path = new URL(req.url ?? "/", "http://fake").pathname;

    if (req.method === "GET" && path === "/health") return html(res, 200, "ok", "ok");
    if (path.startsWith(`${REFUNDS_PATH}/`) || path.startsWith(`${SUBSCRIPTIONS_PATH}/`)) return handleApi(req, res, path, raw);

    if (req.method === "POST" && path === VALIDATE_PATH) {
      state.validations++;
      if (state.validateDelayMs > 0) await new Promise((r) => setTimeout(r, state.validateDelayMs));
      if (state.validate === "down") {
        res.writeHead(503, { "content-type": "text/plain" });
        return res.end("Service Unavailable");
      }
      res.writeHead(200, { "content-type": "text/plain" });
      return res.end(state.validate === "check" && sent.has(itnParamString(fakeParseForm(raw))) ? "VALID" : "INVALID");
    }

    if (req.method === "POST" && path === PROCESS_PATH) {
      const pairs = fakeParseForm(raw);
      const fields = Object.fromEntries(pairs);
      const problems = [
        fields.merchant_id === options.merchantId ? "" : "merchant_id",
        fields.merchant_key === options.merchantKey ? "" : "merchant_key",
        // R0.00 only for an ad hoc agreement (tokenisation), which may start without a charge
        /^\d+\.\d{2}$/.test(fields.amount ?? "") && (Number(fields.amount) > 0 || fields.subscription_type === "2") ? "" : "amount",
        fields.item_name ? "" : "item_name",
        fields.m_payment_id ? "" : "m_payment_id",
        fields.notify_url ? "" : "notify_url",
        fields.signature === fakePayfastCheckoutSignature(new Map(pairs), options.passphrase) ? "" : "signature",
      ].filter(Boolean);
      if (problems.length) return html(res, 400, "Payment error", `<h1>Payment error</h1><p>Invalid: ${problems.join(", ")}</p>`);
      const existing = payments.get(fields.m_payment_id);
      const token = fields.subscription_type === "2" ? randomUUID() : undefined;
      const payment = existing ?? { pfPaymentId: String(randomInt(1_000_000, 9_999_999)), fields, status: "PENDING" as const, token };
      if (token && !existing) cards.set(token, { status: "ACTIVE", charges: [] });
      payments.set(fields.m_payment_id, payment);
      const ref = encodeURIComponent(fields.m_payment_id);
      return html(
        res,
        200,
        "PayFast (test)",
        `<p>PayFast test payment</p><h1>R${escapeHtml(fields.amount)}</h1><p>${escapeHtml(fields.item_name)}</p>` +
          `<form method="post" action="${PROCESS_PATH}/${ref}/pay"><button type="submit">Complete payment</button></form>` +
          `<form method="post" action="${PROCESS_PATH}/${ref}/cancel"><button type="submit">Cancel payment</button></form>`,
      );
    }

    const action = /^\/eng\/process\/([^/]+)\/(pay|cancel)$/.exec(path);
    if (req.method === "POST" && action) {
      const payment = payments.get(decodeURIComponent(action[1]));
      if (!payment) return html(res, 404, "Not found", "<h1>No such payment</h1>");
      if (action[2] === "cancel") {
        payment.status = "CANCELLED";
        res.writeHead(303, { location: payment.fields.cancel_url });
        return res.end();
      }
      payment.status = "COMPLETE";
      // PayFast notifies the merchant, then sends the buyer back.
      await sendItn(payment.fields.m_payment_id).catch(() => undefined);
      res.writeHead(303, { location: payment.fields.return_url });
      return res.end();
    }
    return html(res, 404, "Not found", "<h1>Not found</h1>");
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => html(res, 500, "Error", escapeHtml(String(error))));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    payments,
    get validate() {
      return state.validate;
    },
    set validate(value) {
      state.validate = value;
    },
    get validations() {
      return state.validations;
    },
    get validateDelayMs() {
      return state.validateDelayMs;
    },
    set validateDelayMs(value) {
      state.validateDelayMs = value;
    },
    refunds,
    get refundMode() {
      return state.refundMode;
    },
    set refundMode(value) {
      state.refundMode = value;
    },
    get refundDelayMs() {
      return state.refundDelayMs;
    },
    set refundDelayMs(value) {
      state.refundDelayMs = value;
    },
    get queryDown() {
      return state.queryDown;
    },
    set queryDown(value) {
      state.queryDown = value;
    },
    get payoutOnly() {
      return state.payoutOnly;
    },
    set payoutOnly(value) {
      state.payoutOnly = value;
    },
    apiCalls,
    cards,
    get adhocMode() {
      return state.adhocMode;
    },
    set adhocMode(value) {
      state.adhocMode = value;
    },
    get adhocDelayMs() {
      return state.adhocDelayMs;
    },
    set adhocDelayMs(value) {
      state.adhocDelayMs = value;
    },
    get declineReason() {
      return state.declineReason;
    },
    set declineReason(value) {
      state.declineReason = value;
    },
    get adhocNotifyUrl() {
      return state.adhocNotifyUrl;
    },
    set adhocNotifyUrl(value) {
      state.adhocNotifyUrl = value;
    },
    adhocItnsSent: async () => {
      while (adhocItns.size) await Promise.allSettled([...adhocItns]);
    },
    itnFor,
    sendItn,
    close: () => closeFakeServer(server),
  };
}
