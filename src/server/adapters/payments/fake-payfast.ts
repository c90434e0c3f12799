// A local stand-in for PayFast, for tests and the browser journey. It checks what PayFast checks
// on /eng/process (our merchant id and key, the MD5 signature over the posted fields), shows a
// payment page whose buttons complete or cancel, sends signed ITNs to the notify_url, and answers
// /eng/query/validate: VALID for exactly the pairs of an ITN it sent, else INVALID, or whatever a
// test says (INVALID, or down).
import { randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { formBody, parseFormPairs } from "./form-encoding";
import { PAYFAST_PROCESS_PATH, PAYFAST_VALIDATE_PATH, payfastParamString, payfastSignature } from "./payfast";

export interface FakePayfastPayment {
  pfPaymentId: string;
  /** the fields our checkout posted, in order */
  fields: Record<string, string>;
  status: "PENDING" | "COMPLETE" | "CANCELLED" | "FAILED";
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
      ...(opts.extra ?? []),
    ];
    sent.add(payfastParamString(pairs));
    pairs.push(["signature", opts.signature ?? payfastSignature(pairs, options.passphrase)]);
    return { url: payment.fields.notify_url, body: formBody(pairs) };
  };

  const sendItn: FakePayfast["sendItn"] = async (reference, opts = {}) => {
    const itn = itnFor(reference, opts);
    const target = new URL(itn.url);
    const url = opts.origin ? `${opts.origin.replace(/\/$/, "")}${target.pathname}${target.search}` : itn.url;
    const started = Date.now();
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: itn.body,
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: await response.text(), ms: Date.now() - started };
  };

  const state = { validate: "check" as FakePayfast["validate"], validations: 0, validateDelayMs: 0 };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const path = new URL(req.url ?? "/", "http://fake").pathname;

    if (req.method === "GET" && path === "/health") return html(res, 200, "ok", "ok");

    if (req.method === "POST" && path === PAYFAST_VALIDATE_PATH) {
      state.validations++;
      if (state.validateDelayMs > 0) await new Promise((r) => setTimeout(r, state.validateDelayMs));
      if (state.validate === "down") {
        res.writeHead(503, { "content-type": "text/plain" });
        return res.end("Service Unavailable");
      }
      res.writeHead(200, { "content-type": "text/plain" });
      const pairs = parseFormPairs(raw) ?? [];
      return res.end(state.validate === "check" && sent.has(payfastParamString(pairs)) ? "VALID" : "INVALID");
    }

    if (req.method === "POST" && path === PAYFAST_PROCESS_PATH) {
      const pairs = parseFormPairs(raw);
      if (!pairs) return html(res, 400, "Bad request", "<h1>Bad request</h1>");
      const fields = Object.fromEntries(pairs);
      const problems = [
        fields.merchant_id === options.merchantId ? "" : "merchant_id",
        fields.merchant_key === options.merchantKey ? "" : "merchant_key",
        /^\d+\.\d{2}$/.test(fields.amount ?? "") ? "" : "amount",
        fields.item_name ? "" : "item_name",
        fields.m_payment_id ? "" : "m_payment_id",
        fields.notify_url ? "" : "notify_url",
        fields.signature === payfastSignature(pairs, options.passphrase, { checkout: true }) ? "" : "signature",
      ].filter(Boolean);
      if (problems.length) return html(res, 400, "Payment error", `<h1>Payment error</h1><p>Invalid: ${problems.join(", ")}</p>`);
      const existing = payments.get(fields.m_payment_id);
      const payment = existing ?? { pfPaymentId: String(randomInt(1_000_000, 9_999_999)), fields, status: "PENDING" as const };
      payments.set(fields.m_payment_id, payment);
      const ref = encodeURIComponent(fields.m_payment_id);
      return html(
        res,
        200,
        "PayFast (test)",
        `<p>PayFast test payment</p><h1>R${escapeHtml(fields.amount)}</h1><p>${escapeHtml(fields.item_name)}</p>` +
          `<form method="post" action="${PAYFAST_PROCESS_PATH}/${ref}/pay"><button type="submit">Complete payment</button></form>` +
          `<form method="post" action="${PAYFAST_PROCESS_PATH}/${ref}/cancel"><button type="submit">Cancel payment</button></form>`,
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
    itnFor,
    sendItn,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
