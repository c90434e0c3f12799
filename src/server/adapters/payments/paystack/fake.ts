// A local stand-in for Paystack's API, for tests, written from Paystack's API reference
// (https://paystack.com/docs/api/: transaction initialize / verify / charge_authorization,
// refund create / list, customer authorization deactivate) and its webhooks guide (x-paystack-signature: hex HMAC-SHA512 of the
// body keyed with the secret key). It imports nothing of our adapter or signing code: its
// signature is computed here from the documentation, so a mistake in ours fails our tests.
// It checks the bearer key, holds transactions and refunds, serves a checkout page, lets a test
// pay a transaction (with a card authorization), sends signed webhooks (and replays them), and
// can be told to fail: down (503, nothing done), slow (done, answered too late), lost (done,
// connection cut before the answer) or garbled (done, answered with something that is not JSON).
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeFakeServer, fakePost } from "../fake-http";

export interface FakePaystackAuthorization {
  authorization_code: string;
  bin: string;
  last4: string;
  exp_month: string;
  exp_year: string;
  channel: "card";
  card_type: string;
  bank: string;
  country_code: string;
  brand: string;
  reusable: boolean;
  signature: string;
  account_name: null;
}

export interface FakePaystackTransaction {
  /** Paystack's numeric transaction id */
  id: number;
  reference: string;
  access_code: string;
  /** subunits (cents); a test may change it to play a Paystack that disagrees */
  amount: number;
  /** a test may change it too */
  currency: string;
  email: string;
  status: "abandoned" | "success" | "failed" | "reversed";
  gateway_response: string;
  callback_url: string | null;
  metadata: Record<string, unknown> | null;
  authorization: FakePaystackAuthorization | null;
  paid_at: string | null;
  created_at: string;
}

export interface FakePaystackRefund {
  id: number;
  /** the refunded transaction's id */
  transaction: number;
  transaction_reference: string;
  amount: number;
  currency: string;
  status: "pending" | "processed";
  merchant_note: string | null;
  channel: string;
  createdAt: string;
}

/** The API routes a failure can be set on. */
export type FakePaystackRoute = "initialize" | "verify" | "charge_authorization" | "refund" | "list_refunds" | "deactivate_authorization";
/** down: 503 and nothing done; slow: done, answered after `slowMs`; lost: done, the connection cut; garbled: done, answered 200 with no JSON. */
export type FakePaystackFailure = "down" | "slow" | "lost" | "garbled";

export interface FakePaystackDelivery {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export interface FakePaystack {
  /** http://127.0.0.1:<port>: use as PAYSTACK_API_URL */
  url: string;
  transactions: Map<string, FakePaystackTransaction>;
  refunds: FakePaystackRefund[];
  /** the webhook URL set in the dashboard (where the checkout page's pay button sends charge.success) */
  webhookUrl: string;
  /** how long a `slow` failure waits before answering */
  slowMs: number;
  /** the next `times` calls to `route` fail as `failure` */
  fail(route: FakePaystackRoute, failure: FakePaystackFailure, times?: number): void;
  /** the customer paid on the checkout page with a card (reusable unless told), which can be charged again */
  pay(reference: string, card?: { reusable?: boolean; last4?: string }): FakePaystackTransaction;
  /** every API call made, as "METHOD /path" (the checkout page's are not API calls) */
  calls: string[];
  /** the authorization codes deactivated (POST /customer/authorization/deactivate): charging one is refused */
  deactivated: Set<string>;
  /** resolves when the charge.success webhooks of saved-card charges sent so far have been answered */
  webhooksSent(): Promise<void>;
  /** saved-card charges with this authorization_code are declined from now on */
  decline(authorizationCode: string, gatewayResponse?: string): void;
  /** the signed delivery of an event about a transaction (`charge.success` by default) */
  webhookFor(reference: string, options?: { event?: string; secretKey?: string; url?: string }): FakePaystackDelivery;
  /** POSTs a delivery (a fresh one by reference, or the very same one again: a replay) */
  send(delivery: FakePaystackDelivery): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

const token = (prefix: string, bytes = 8) => `${prefix}${randomBytes(bytes).toString("hex")}`;

/** Paystack's webhook signature, from its webhooks guide: HMAC-SHA512 of the body with the secret key, hex. */
const sign = (secretKey: string, body: string) => createHmac("sha512", secretKey).update(body).digest("hex");

export async function startFakePaystack(options: { secretKey: string; webhookUrl?: string; port?: number }): Promise<FakePaystack> {
  const transactions = new Map<string, FakePaystackTransaction>();
  const byAccessCode = new Map<string, string>();
  const authorizations = new Map<string, { authorization: FakePaystackAuthorization; email: string }>();
  const declined = new Map<string, string>();
  const refunds: FakePaystackRefund[] = [];
  const failures = new Map<FakePaystackRoute, { failure: FakePaystackFailure; times: number }>();
  const calls: string[] = [];
  const deactivated = new Set<string>();
  const sending = new Set<Promise<unknown>>();
  const state = { webhookUrl: options.webhookUrl ?? "", slowMs: 1500 };
  let nextId = 4_099_260_000;

  const json = (res: ServerResponse, status: number, body: unknown) => {
    if (res.writableEnded || res.destroyed) return;
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const refusal = (res: ServerResponse, status: number, message: string) => json(res, status, { status: false, message });

  const view = (t: FakePaystackTransaction) => ({
    id: t.id,
    domain: "test",
    status: t.status,
    reference: t.reference,
    amount: t.amount,
    message: null,
    gateway_response: t.gateway_response,
    paid_at: t.paid_at,
    created_at: t.created_at,
    channel: "card",
    currency: t.currency,
    ip_address: "127.0.0.1",
    metadata: t.metadata ?? "",
    fees: t.status === "success" ? Math.round(t.amount * 0.029) : null,
    customer: { id: 181_873_746, first_name: null, last_name: null, email: t.email, customer_code: "CUS_fake", phone: null },
    authorization: t.authorization ?? {},
    plan: null,
    paidAt: t.paid_at,
    createdAt: t.created_at,
    requested_amount: t.amount,
  });
  const refundView = (r: FakePaystackRefund) => ({ ...r, integration: 100_032, domain: "test", deducted_amount: 0, fully_deducted: false });

  /** The failure set on a route, used up by one call. */
  const failureFor = (route: FakePaystackRoute): FakePaystackFailure | undefined => {
    const set = failures.get(route);
    if (!set) return undefined;
    set.times -= 1;
    if (set.times <= 0) failures.delete(route);
    return set.failure;
  };
  /** Answers a call that was made, unless a failure says the answer goes astray. */
  const answer = async (res: ServerResponse, failure: FakePaystackFailure | undefined, status: number, body: unknown) => {
    if (failure === "lost") {
      res.socket?.destroy();
      return;
    }
    if (failure === "garbled") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html><body>502 Bad Gateway</body></html>");
      return;
    }
    if (failure === "slow") await new Promise((resolve) => setTimeout(resolve, state.slowMs));
    json(res, status, body);
  };

  const newTransaction = (
    fields: Pick<FakePaystackTransaction, "reference" | "amount" | "currency" | "email"> & Partial<FakePaystackTransaction>,
  ) => {
    const t: FakePaystackTransaction = {
      id: nextId++,
      access_code: token("", 7),
      status: "abandoned",
      gateway_response: "The transaction was not completed",
      callback_url: null,
      metadata: null,
      authorization: null,
      paid_at: null,
      created_at: new Date().toISOString(),
      ...fields,
    };
    transactions.set(t.reference, t);
    byAccessCode.set(t.access_code, t.reference);
    return t;
  };

  const pay: FakePaystack["pay"] = (reference, card = {}) => {
    const t = transactions.get(reference);
    if (!t) throw new Error(`fake Paystack: no transaction ${reference}`);
    t.status = "success";
    t.gateway_response = "Successful";
    t.paid_at = new Date().toISOString();
    t.authorization = {
      authorization_code: token("AUTH_", 5),
      bin: "408408",
      last4: card.last4 ?? "4081",
      exp_month: "12",
      exp_year: "2030",
      channel: "card",
      card_type: "visa ",
      bank: "TEST BANK",
      country_code: "ZA",
      brand: "visa",
      reusable: card.reusable ?? true,
      signature: token("SIG_", 10),
      account_name: null,
    };
    if (t.authorization.reusable)
      authorizations.set(t.authorization.authorization_code, { authorization: t.authorization, email: t.email });
    return t;
  };

  const webhookFor: FakePaystack["webhookFor"] = (reference, opts = {}) => {
    const t = transactions.get(reference);
    if (!t) throw new Error(`fake Paystack: no transaction ${reference}`);
    const body = JSON.stringify({ event: opts.event ?? "charge.success", data: view(t) });
    return {
      url: opts.url ?? state.webhookUrl,
      body,
      headers: { "content-type": "application/json", "x-paystack-signature": sign(opts.secretKey ?? options.secretKey, body) },
    };
  };

  const send: FakePaystack["send"] = (delivery) => fakePost(delivery.url, delivery.headers, delivery.body);

  const readJson = (raw: string): Record<string, unknown> | undefined => {
    try {
      const parsed: unknown = JSON.parse(raw || "{}");
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  };
  /** Paystack takes amounts as an integer or a string of one. */
  const amountOf = (value: unknown): number | undefined => {
    const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
    return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : undefined;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname;

    // The checkout page the customer is sent to (no key: it is the customer's browser).
    const page = /^\/checkout\/([^/]+)(?:\/(pay|cancel))?$/.exec(path);
    if (page) {
      const t = transactions.get(byAccessCode.get(page[1]) ?? "");
      if (!t) return refusal(res, 404, "Transaction not found");
      if (req.method === "GET" && !page[2]) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(
          `<!doctype html><html lang="en"><head><title>Paystack (test)</title></head><body><main><p>Paystack test checkout</p>` +
            `<h1>R${(t.amount / 100).toFixed(2)}</h1><p>${t.email.replace(/[<>&"]/g, "")}</p>` +
            `<form method="post" action="/checkout/${t.access_code}/pay"><button type="submit">Pay</button></form>` +
            `<form method="post" action="/checkout/${t.access_code}/cancel"><button type="submit">Cancel</button></form></main></body></html>`,
        );
      }
      if (req.method === "POST" && page[2] === "pay") {
        pay(t.reference);
        if (state.webhookUrl) await send(webhookFor(t.reference)).catch(() => undefined);
        const back = new URL(t.callback_url ?? "/", "http://fake");
        back.searchParams.set("trxref", t.reference);
        back.searchParams.set("reference", t.reference);
        res.writeHead(302, { location: back.toString() });
        return res.end();
      }
      if (req.method === "POST" && page[2] === "cancel") {
        const cancel = t.metadata?.cancel_action;
        res.writeHead(302, { location: typeof cancel === "string" ? cancel : (t.callback_url ?? "/") });
        return res.end();
      }
    }

    if (req.headers.authorization !== `Bearer ${options.secretKey}`) return refusal(res, 401, "Invalid key");
    calls.push(`${req.method} ${path}`);

    const route: FakePaystackRoute | undefined =
      req.method === "POST" && path === "/transaction/initialize"
        ? "initialize"
        : req.method === "GET" && path.startsWith("/transaction/verify/")
          ? "verify"
          : req.method === "POST" && path === "/transaction/charge_authorization"
            ? "charge_authorization"
            : req.method === "POST" && path === "/refund"
              ? "refund"
              : req.method === "GET" && path === "/refund"
                ? "list_refunds"
                : req.method === "POST" && path === "/customer/authorization/deactivate"
                  ? "deactivate_authorization"
                  : undefined;
    if (!route) return refusal(res, 404, "Route not found");
    const failure = failureFor(route);
    if (failure === "down") return refusal(res, 503, "Service unavailable");

    if (route === "initialize") {
      const body = readJson(raw);
      if (!body) return refusal(res, 400, "Invalid JSON");
      const amount = amountOf(body.amount);
      if (typeof body.email !== "string" || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(body.email))
        return refusal(res, 400, "Invalid Email Address Passed");
      if (!amount) return refusal(res, 400, "Invalid Amount Sent");
      const currency = typeof body.currency === "string" ? body.currency : "NGN";
      if (currency !== "ZAR") return refusal(res, 400, "Currency not supported by merchant");
      const reference = typeof body.reference === "string" && body.reference ? body.reference : token("T", 7);
      if (transactions.has(reference)) return refusal(res, 400, "Duplicate Transaction Reference");
      const t = newTransaction({
        reference,
        amount,
        currency,
        email: body.email,
        callback_url: typeof body.callback_url === "string" ? body.callback_url : null,
        metadata: body.metadata && typeof body.metadata === "object" ? (body.metadata as Record<string, unknown>) : null,
      });
      return answer(res, failure, 200, {
        status: true,
        message: "Authorization URL created",
        data: { authorization_url: `${fake.url}/checkout/${t.access_code}`, access_code: t.access_code, reference: t.reference },
      });
    }

    if (route === "verify") {
      const t = transactions.get(decodeURIComponent(path.slice("/transaction/verify/".length)));
      if (!t) return refusal(res, 400, "Transaction reference not found");
      return answer(res, failure, 200, { status: true, message: "Verification successful", data: view(t) });
    }

    if (route === "charge_authorization") {
      const body = readJson(raw);
      if (!body) return refusal(res, 400, "Invalid JSON");
      const amount = amountOf(body.amount);
      if (!amount) return refusal(res, 400, "Invalid Amount Sent");
      const saved = authorizations.get(String(body.authorization_code ?? ""));
      if (!saved || deactivated.has(saved.authorization.authorization_code)) return refusal(res, 400, "Invalid authorization code");
      if (body.email !== saved.email) return refusal(res, 400, "Authorization code does not belong to this customer");
      const currency = typeof body.currency === "string" ? body.currency : "ZAR";
      if (currency !== "ZAR") return refusal(res, 400, "Currency not supported by merchant");
      const reference = typeof body.reference === "string" && body.reference ? body.reference : token("T", 7);
      if (transactions.has(reference)) return refusal(res, 400, "Duplicate Transaction Reference");
      const declinedWith = declined.get(saved.authorization.authorization_code);
      const now = new Date().toISOString();
      const t = newTransaction({
        reference,
        amount,
        currency,
        email: saved.email,
        status: declinedWith ? "failed" : "success",
        gateway_response: declinedWith ?? "Approved",
        authorization: saved.authorization,
        paid_at: declinedWith ? null : now,
        metadata: body.metadata && typeof body.metadata === "object" ? (body.metadata as Record<string, unknown>) : null,
      });
      // Paystack sends charge.success for a saved-card charge as for any other (after answering)
      if (t.status === "success" && state.webhookUrl) {
        const delivery = webhookFor(t.reference);
        const sent = new Promise((resolve) => setTimeout(resolve, 5)).then(() => send(delivery)).catch(() => undefined);
        sending.add(sent);
        void sent.finally(() => sending.delete(sent));
      }
      return answer(res, failure, 200, { status: true, message: "Charge attempted", data: view(t) });
    }

    if (route === "deactivate_authorization") {
      const body = readJson(raw);
      if (!body) return refusal(res, 400, "Invalid JSON");
      const code = String(body.authorization_code ?? "");
      if (!authorizations.has(code)) return refusal(res, 404, "Authorization code not found");
      deactivated.add(code);
      return answer(res, failure, 200, { status: true, message: "Authorization has been deactivated" });
    }

    if (route === "refund") {
      const body = readJson(raw);
      if (!body) return refusal(res, 400, "Invalid JSON");
      const named = String(body.transaction ?? "");
      const t = transactions.get(named) ?? [...transactions.values()].find((x) => String(x.id) === named);
      if (!t) return refusal(res, 400, "Transaction not found");
      if (t.status === "reversed") return refusal(res, 400, "Transaction has been fully reversed");
      if (t.status !== "success") return refusal(res, 400, "Cannot refund a transaction that was not successful");
      const left = t.amount - refunds.filter((r) => r.transaction === t.id).reduce((sum, r) => sum + r.amount, 0);
      const amount = body.amount === undefined ? left : amountOf(body.amount);
      if (!amount || amount > left) return refusal(res, 400, "Refund amount cannot be more than the transaction amount");
      const refund: FakePaystackRefund = {
        id: nextId++,
        transaction: t.id,
        transaction_reference: t.reference,
        amount,
        currency: t.currency,
        status: "pending",
        merchant_note: typeof body.merchant_note === "string" ? body.merchant_note : null,
        channel: "card",
        createdAt: new Date().toISOString(),
      };
      refunds.push(refund);
      if (amount === left) t.status = "reversed";
      return answer(res, failure, 200, {
        status: true,
        message: "Refund has been queued for processing",
        data: { ...refundView(refund), transaction: view(t) },
      });
    }

    // list_refunds: the transaction filter takes its id (and, leniently, its reference)
    const named = url.searchParams.get("transaction");
    const perPage = Math.min(Number(url.searchParams.get("perPage") ?? 50) || 50, 100);
    const listed = refunds.filter((r) => !named || String(r.transaction) === named || r.transaction_reference === named);
    return answer(res, failure, 200, {
      status: true,
      message: "Refunds retrieved",
      data: listed.slice(0, perPage).map(refundView),
      meta: { total: listed.length, skipped: 0, perPage, page: 1, pageCount: Math.max(1, Math.ceil(listed.length / perPage)) },
    });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => json(res, 500, { status: false, message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakePaystack = {
    url: `http://127.0.0.1:${port}`,
    transactions,
    refunds,
    get webhookUrl() {
      return state.webhookUrl;
    },
    set webhookUrl(value) {
      state.webhookUrl = value;
    },
    get slowMs() {
      return state.slowMs;
    },
    set slowMs(value) {
      state.slowMs = value;
    },
    calls,
    deactivated,
    async webhooksSent() {
      while (sending.size) await Promise.all([...sending]);
    },
    fail(route, failure, times = 1) {
      failures.set(route, { failure, times });
    },
    pay,
    decline(authorizationCode, gatewayResponse = "Declined") {
      declined.set(authorizationCode, gatewayResponse);
    },
    webhookFor,
    send,
    close: () => closeFakeServer(server),
  };
  return fake;
}
