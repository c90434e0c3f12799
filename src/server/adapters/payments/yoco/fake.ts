// A local stand-in for Yoco Checkout, for tests. It checks what Yoco checks (the bearer secret key;
// 401 when wrong), makes one checkout per Idempotency-Key, serves a payment page, reads checkouts
// back, refunds completed ones, and sends webhooks signed as Standard Webhooks to the URL the
// merchant registered. It can be down.
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeFakeServer, fakePost } from "../fake-http";

// Yoco's protocol as its developer docs state it (https://developer.yoco.com: "Create a checkout",
// "Refund a checkout", "Verifying webhook events"), whose webhooks follow the Standard Webhooks
// specification (https://www.standardwebhooks.com, "Signature scheme"). Written here from that
// text and sharing nothing with our adapter (adapter.ts), so a signing mistake there fails here.

const CHECKOUTS_PATH = "/api/checkouts";

/**
 * Standard Webhooks' signature: the secret is the base64 after the `whsec_` prefix, decoded; the
 * signed content is `${webhook-id}.${webhook-timestamp}.${body}`; HMAC-SHA256, base64; the header
 * value is the version `v1`, a comma, the signature.
 */
export function fakeStandardWebhookSignature(secret: string, webhookId: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  const signature = createHmac("sha256", key).update(`${webhookId}.${timestamp}.${body}`, "utf8").digest("base64");
  return `v1,${signature}`;
}

export interface FakeYocoCheckout {
  id: string;
  /** cents as created; a test may change it to play a Yoco that disagrees */
  amount: number;
  status: "created" | "completed" | "cancelled";
  paymentId: string | null;
  request: Record<string, unknown>;
  idempotencyKey: string;
  refunds: { refundId: string; amount: number }[];
}

export interface FakeYoco {
  /** http://127.0.0.1:<port>: use as YOCO_API_URL */
  url: string;
  checkouts: Map<string, FakeYocoCheckout>;
  /** where webhooks go (the merchant's registered webhook URL) */
  webhookUrl: string;
  /** the API answers 503 */
  down: boolean;
  /** a refund is made and its connection cut before the answer (a lost answer) */
  refundAnswerLost: boolean;
  /** the customer paid on the checkout page */
  complete(checkoutId: string): FakeYocoCheckout;
  /** a signed webhook delivery, with what a test may change */
  webhookFor(
    checkoutId: string,
    options?: {
      type?: string;
      amount?: number;
      currency?: string;
      paymentId?: string;
      secret?: string;
      timestamp?: number;
      webhookId?: string;
    },
  ): { body: string; headers: Record<string, string> };
  sendWebhook(
    checkoutId: string,
    options?: Parameters<FakeYoco["webhookFor"]>[1] & { url?: string },
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_${randomBytes(9).toString("base64url")}`;

export async function startFakeYoco(options: {
  secretKey: string;
  webhookSecret: string;
  webhookUrl?: string;
  port?: number;
}): Promise<FakeYoco> {
  const checkouts = new Map<string, FakeYocoCheckout>();
  const byKey = new Map<string, string>();
  const state = { down: false, refundAnswerLost: false, webhookUrl: options.webhookUrl ?? "" };
  const refundsByKey = new Map<string, { refundId: string; amount: number }>();

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const view = (c: FakeYocoCheckout) => ({
    id: c.id,
    status: c.status,
    amount: c.amount,
    currency: "ZAR",
    paymentId: c.paymentId,
    redirectUrl: `${fake.url}/pay/${c.id}`,
    successUrl: c.request.successUrl,
    cancelUrl: c.request.cancelUrl,
    failureUrl: c.request.failureUrl,
    metadata: c.request.metadata,
    externalId: c.request.externalId,
  });

  const webhookFor: FakeYoco["webhookFor"] = (checkoutId, opts = {}) => {
    const c = checkouts.get(checkoutId);
    if (!c) throw new Error(`fake Yoco: no checkout ${checkoutId}`);
    const body = JSON.stringify({
      id: id("evt"),
      type: opts.type ?? "payment.succeeded",
      createdDate: new Date().toISOString(),
      payload: {
        id: opts.paymentId ?? c.paymentId ?? id("p"),
        type: "payment",
        createdDate: new Date().toISOString(),
        amount: opts.amount ?? c.amount,
        currency: opts.currency ?? "ZAR",
        status: "succeeded",
        mode: "live",
        metadata: { checkoutId, ...(c.request.metadata as Record<string, unknown>) },
      },
    });
    const webhookId = opts.webhookId ?? id("msg");
    const timestamp = String(opts.timestamp ?? Math.floor(Date.now() / 1000));
    return {
      body,
      headers: {
        "content-type": "application/json",
        "webhook-id": webhookId,
        "webhook-timestamp": timestamp,
        "webhook-signature": fakeStandardWebhookSignature(opts.secret ?? options.webhookSecret, webhookId, timestamp, body),
      },
    };
  };

  const sendWebhook: FakeYoco["sendWebhook"] = async (checkoutId, opts = {}) => {
    const { body, headers } = webhookFor(checkoutId, opts);
    return fakePost(opts.url ?? state.webhookUrl, headers, body);
  };

  const complete = (checkoutId: string) => {
    const c = checkouts.get(checkoutId);
    if (!c) throw new Error(`fake Yoco: no checkout ${checkoutId}`);
    c.status = "completed";
    c.paymentId ??= id("p");
    return c;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const path = new URL(req.url ?? "/", "http://fake").pathname;

    const page = /^\/pay\/([^/]+)(?:\/(pay|cancel))?$/.exec(path);
    if (page) {
      const c = checkouts.get(page[1]);
      if (!c) return json(res, 404, { errorCode: "not_found" });
      if (req.method === "GET" && !page[2]) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        return res.end(
          `<!doctype html><html lang="en"><head><title>Yoco (test)</title></head><body><main><p>Yoco test checkout</p><h1>R${(c.amount / 100).toFixed(2)}</h1>` +
            `<form method="post" action="/pay/${c.id}/pay"><button type="submit">Pay</button></form>` +
            `<form method="post" action="/pay/${c.id}/cancel"><button type="submit">Cancel</button></form></main></body></html>`,
        );
      }
      if (req.method === "POST" && page[2] === "pay") {
        complete(c.id);
        if (state.webhookUrl) await sendWebhook(c.id).catch(() => undefined);
        res.writeHead(303, { location: String(c.request.successUrl) });
        return res.end();
      }
      if (req.method === "POST" && page[2] === "cancel") {
        c.status = "cancelled";
        res.writeHead(303, { location: String(c.request.cancelUrl) });
        return res.end();
      }
    }

    if (state.down) return json(res, 503, { errorType: "unavailable" });
    if (req.headers.authorization !== `Bearer ${options.secretKey}`) return json(res, 401, { errorType: "unauthorized" });

    if (req.method === "POST" && path === CHECKOUTS_PATH) {
      const key = req.headers["idempotency-key"];
      if (typeof key !== "string" || !key) return json(res, 400, { errorCode: "missing_idempotency_key" });
      const known = byKey.get(key);
      if (known) return json(res, 200, view(checkouts.get(known) as FakeYocoCheckout));
      let request: Record<string, unknown>;
      try {
        request = JSON.parse(raw);
      } catch {
        return json(res, 400, { errorCode: "invalid_json" });
      }
      if (!Number.isInteger(request.amount) || (request.amount as number) <= 0 || request.currency !== "ZAR") {
        return json(res, 400, { errorCode: "invalid_request", description: "amount (cents) and currency ZAR are required" });
      }
      const c: FakeYocoCheckout = {
        id: id("ch"),
        amount: request.amount as number,
        status: "created",
        paymentId: null,
        request,
        idempotencyKey: key,
        refunds: [],
      };
      checkouts.set(c.id, c);
      byKey.set(key, c.id);
      return json(res, 200, view(c));
    }

    const one = /^\/api\/checkouts\/([^/]+)(\/refund)?$/.exec(path);
    const c = one ? checkouts.get(decodeURIComponent(one[1])) : undefined;
    if (one && !c) return json(res, 404, { errorCode: "not_found" });
    if (c && req.method === "GET" && !one?.[2]) return json(res, 200, view(c));
    if (c && req.method === "POST" && one?.[2]) {
      if (c.status !== "completed") return json(res, 400, { errorCode: "not_refundable", description: "Checkout is not completed" });
      // Yoco's refunds dedupe on the Idempotency-Key: the same key answers the first refund again.
      const refundKey = String(req.headers["idempotency-key"] ?? "");
      const again = refundKey ? refundsByKey.get(refundKey) : undefined;
      if (again) return json(res, 200, { id: c.id, refundId: again.refundId, message: "Refund succeeded", status: "succeeded" });
      const body = raw ? (JSON.parse(raw) as { amount?: number }) : {};
      const left = c.amount - c.refunds.reduce((sum, r) => sum + r.amount, 0);
      const amount = body.amount ?? left;
      if (!Number.isInteger(amount) || amount <= 0 || amount > left) return json(res, 400, { errorCode: "invalid_amount" });
      const refund = { refundId: id("rf"), amount };
      c.refunds.push(refund);
      if (refundKey) refundsByKey.set(refundKey, refund);
      if (state.refundAnswerLost) {
        // made, and the answer never arrives
        res.socket?.destroy();
        return;
      }
      return json(res, 200, { id: c.id, refundId: refund.refundId, message: "Refund succeeded", status: "succeeded" });
    }
    return json(res, 404, { errorCode: "not_found" });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => json(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeYoco = {
    url: `http://127.0.0.1:${port}`,
    checkouts,
    get webhookUrl() {
      return state.webhookUrl;
    },
    set webhookUrl(value) {
      state.webhookUrl = value;
    },
    get refundAnswerLost() {
      return state.refundAnswerLost;
    },
    set refundAnswerLost(value) {
      state.refundAnswerLost = value;
    },
    get down() {
      return state.down;
    },
    set down(value) {
      state.down = value;
    },
    complete,
    webhookFor,
    sendWebhook,
    close: () => closeFakeServer(server),
  };
  return fake;
}
