// A local stand-in for Ozow, for tests. One host plays both Ozow's payment page (the form post,
// HashCheck and SiteCode checked) and its API (GetTransactionByReference, ApiKey checked). It
// keeps the transactions, sends hashed notifications to the NotifyUrl, and can be down. It also
// plays Ozow's refund API: /token (ApiKey and SiteCode), /secure/refunds/submit (the bearer token
// and each refund's HashCheck checked) and /secure/refunds/getrefunds (by day), and a test may make
// a refund be refused, fail with Ozow down, or be made with its answer lost, or the list be down
// (for every payment, or for one: lostRefunds, which a browser test sets over HTTP).
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fakeFormBody, fakeParseForm } from "../fake-form-protocol";
import { closeFakeServer, fakePost } from "../fake-http";

// Ozow's protocol as its developer hub states it (https://hub.ozow.com/docs: "Step 1: Post from
// merchant website" and its hash check, "Notification response" and its response hash check,
// "Get transaction by reference", "Refunds integration"), written here from that text and sharing
// nothing with our adapter (adapter.ts), so a hashing mistake there is refused here as Ozow would.

const STATUS_PATH = "/GetTransactionByReference";
const TOKEN_PATH = "/token";
const REFUND_SUBMIT_PATH = "/secure/refunds/submit";
const REFUND_LIST_PATH = "/secure/refunds/getrefunds";

/** The merchant's own fields, Optional1 to Optional5: posted with the payment and sent back in the notification. */
const FAKE_OZOW_OPTIONAL_FIELDS = ["Optional1", "Optional2", "Optional3", "Optional4", "Optional5"] as const;

/** "Post variables", numbered 1-28 in Ozow's table; HashCheck (29) is over the others in this order. */
const FAKE_OZOW_PAYMENT_REQUEST_ORDER = [
  "SiteCode",
  "CountryCode",
  "CurrencyCode",
  "Amount",
  "TransactionReference",
  "BankReference",
  ...FAKE_OZOW_OPTIONAL_FIELDS,
  "Customer",
  "CancelUrl",
  "ErrorUrl",
  "SuccessUrl",
  "NotifyUrl",
  "IsTest",
  "SelectedBankId",
  "BankAccountNumber",
  "BranchCode",
  "BankAccountName",
  "PayeeDisplayName",
  "ExpiryDateUtc",
  "AllowVariableAmount",
  "VariableAmountMin",
  "VariableAmountMax",
  "CustomerIdentifier",
  "CustomerCellphoneNumber",
] as const;

/** "Response variables" of the notification, in table order; Hash is over these. */
const FAKE_OZOW_NOTIFICATION_ORDER = [
  "SiteCode",
  "TransactionId",
  "TransactionReference",
  "Amount",
  "Status",
  ...FAKE_OZOW_OPTIONAL_FIELDS,
  "CurrencyCode",
  "IsTest",
  "StatusMessage",
] as const;

/** A refund submission's hashed fields, in the order of Ozow's "Submit refunds" table. */
const FAKE_OZOW_REFUND_ORDER = ["TransactionId", "Amount", "RefundReason", "NotifyUrl"] as const;

/**
 * Ozow's hash check: concatenate the values in table order, append the private key, convert the
 * whole string to lower case, SHA-512 it; hex.
 */
function hashCheck(values: Record<string, string | undefined>, order: readonly string[], privateKey: string): string {
  const text = `${order.map((name) => values[name] ?? "").join("")}${privateKey}`.toLowerCase();
  return createHash("sha512").update(text, "utf8").digest("hex");
}

const ORDERS = { payment: FAKE_OZOW_PAYMENT_REQUEST_ORDER, notification: FAKE_OZOW_NOTIFICATION_ORDER, refund: FAKE_OZOW_REFUND_ORDER };

/** The hash check of a payment request (HashCheck), a notification (Hash) or a refund submission (HashCheck). */
export function fakeOzowHash(kind: keyof typeof ORDERS, values: Record<string, string | undefined>, privateKey: string): string {
  return hashCheck(values, ORDERS[kind], privateKey);
}

/** The SAST calendar day Ozow's refund list is asked by: 2026/06/13. */
function sastDay(at: Date): string {
  const sast = new Date(at.getTime() + 2 * 60 * 60 * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${sast.getUTCFullYear()}/${pad(sast.getUTCMonth() + 1)}/${pad(sast.getUTCDate())}`;
}

export interface FakeOzowRefund {
  id: string;
  transactionId: string;
  transactionReference: string;
  /** rand */
  amount: number;
  reason: string;
  /** 0 Pending, 1 Complete, 3 Failed, ... (Ozow's numbers) */
  status: number;
  createdAt: Date;
}

export type FakeOzowStatus = "Pending" | "Complete" | "Cancelled" | "Error" | "Abandoned" | "PendingInvestigation";

export interface FakeOzowTransaction {
  transactionId: string;
  /** the payment request's fields as posted */
  request: Record<string, string>;
  status: FakeOzowStatus;
  /** rand as the status API reports it; a test may change it to play an Ozow that disagrees */
  amount: number;
}

export interface FakeOzow {
  /** http://127.0.0.1:<port>: both OZOW_URL and OZOW_API_URL */
  url: string;
  /** by our TransactionReference */
  transactions: Map<string, FakeOzowTransaction>;
  /** the status API answers 503 */
  apiDown: boolean;
  /** status API calls so far */
  readonly statusQueries: number;
  refunds: FakeOzowRefund[];
  /** submit: made and answered (ok), refused with errors (refuse), 503 not made (down), made with the connection cut (lost) */
  refundMode: "ok" | "refuse" | "down" | "lost";
  /** getrefunds answers 503 */
  refundListDown: boolean;
  /**
   * Payments (by our TransactionReference) whose refunds are made with the answer lost and whose
   * day's refund list answers 503: "lost" with the list down, for one payment only, so a browser
   * test (which sets it with POST /_fake/lose-refunds) does not change other payments' refunds.
   */
  readonly lostRefunds: Set<string>;
  /** refund API calls so far, by "METHOD path" */
  readonly refundCalls: string[];
  /** the customer finished on Ozow's page */
  complete(reference: string, status: FakeOzowStatus): void;
  /** the hashed notification Ozow would post, with fields a test may change */
  notificationFor(
    reference: string,
    options?: { status?: FakeOzowStatus; amount?: string; currency?: string; transactionId?: string; hash?: string; isTest?: boolean },
  ): { url: string; body: string };
  sendNotification(
    reference: string,
    options?: Parameters<FakeOzow["notificationFor"]>[1] & { origin?: string },
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

export async function startFakeOzow(options: { siteCode: string; privateKey: string; apiKey: string; port?: number }): Promise<FakeOzow> {
  const transactions = new Map<string, FakeOzowTransaction>();
  const state = { apiDown: false, statusQueries: 0, refundMode: "ok" as FakeOzow["refundMode"], refundListDown: false };
  const refunds: FakeOzowRefund[] = [];
  const refundCalls: string[] = [];
  const lostRefunds = new Set<string>();
  const tokens = new Set<string>();

  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { "content-type": type });
    res.end(body);
  };

  const notificationFor: FakeOzow["notificationFor"] = (reference, opts = {}) => {
    const t = transactions.get(reference);
    if (!t) throw new Error(`fake Ozow: no transaction ${reference}`);
    const values: Record<(typeof FAKE_OZOW_NOTIFICATION_ORDER)[number], string> = {
      SiteCode: options.siteCode,
      TransactionId: opts.transactionId ?? t.transactionId,
      TransactionReference: reference,
      Amount: opts.amount ?? t.request.Amount,
      Status: opts.status ?? (t.status === "Pending" ? "Complete" : t.status),
      Optional1: "",
      Optional2: "",
      Optional3: "",
      Optional4: "",
      Optional5: "",
      CurrencyCode: opts.currency ?? "ZAR",
      IsTest: opts.isTest ? "true" : "false",
      StatusMessage: "Payment via test bank",
    };
    const pairs: [string, string][] = FAKE_OZOW_NOTIFICATION_ORDER.map((key) => [key, values[key]]);
    pairs.push(["Hash", opts.hash ?? fakeOzowHash("notification", values, options.privateKey)]);
    return { url: t.request.NotifyUrl, body: fakeFormBody(pairs) };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");

    if (req.method === "GET" && url.pathname === STATUS_PATH) {
      state.statusQueries++;
      if (state.apiDown) return send(res, 503, "text/plain", "Service Unavailable");
      if (req.headers.apikey !== options.apiKey) return send(res, 401, "application/json", JSON.stringify({ message: "Invalid ApiKey" }));
      if (url.searchParams.get("siteCode") !== options.siteCode) return send(res, 200, "application/json", "[]");
      const t = transactions.get(url.searchParams.get("transactionReference") ?? "");
      const body = t
        ? [
            {
              transactionId: t.transactionId,
              merchantCode: "FAKE",
              siteCode: options.siteCode,
              transactionReference: t.request.TransactionReference,
              currencyCode: "ZAR",
              amount: t.amount,
              status: t.status,
              statusMessage: "",
            },
          ]
        : [];
      return send(res, 200, "application/json", JSON.stringify(body));
    }

    if (req.method === "POST" && url.pathname === TOKEN_PATH) {
      refundCalls.push(`POST ${url.pathname}`);
      const form = Object.fromEntries(fakeParseForm(raw));
      if (req.headers.apikey !== options.apiKey || form.SiteCode !== options.siteCode || form.grant_type?.toLowerCase() !== "password") {
        return send(res, 400, "application/json", JSON.stringify({ error: "invalid_grant" }));
      }
      const token = randomUUID();
      tokens.add(token);
      return send(res, 200, "application/json", JSON.stringify({ access_token: token, token_type: "bearer", expires_in: 3600 }));
    }

    if (url.pathname === REFUND_SUBMIT_PATH || url.pathname === REFUND_LIST_PATH) {
      refundCalls.push(`${req.method} ${url.pathname}`);
      const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ""))?.[1];
      if (!bearer || !tokens.has(bearer))
        return send(res, 401, "application/json", JSON.stringify({ message: "Authorization has been denied" }));
      if (req.method === "GET" && url.pathname === REFUND_LIST_PATH) {
        const day = url.searchParams.get("RefundDate");
        const lostThatDay = refunds.some((r) => lostRefunds.has(r.transactionReference) && sastDay(r.createdAt) === day);
        if (state.refundListDown || lostThatDay) return send(res, 503, "text/plain", "Service Unavailable");
        const list = refunds
          .filter((r) => sastDay(r.createdAt) === day)
          .map((r) => ({
            id: r.id,
            createdDate: r.createdAt.toISOString(),
            siteCode: options.siteCode,
            currencyCode: "ZAR",
            amount: r.amount,
            status: r.status,
            transactionReference: r.transactionReference,
          }));
        return send(res, 200, "application/json", JSON.stringify(list));
      }
      if (req.method === "POST" && url.pathname === REFUND_SUBMIT_PATH) {
        if (state.refundMode === "down") return send(res, 503, "text/plain", "Service Unavailable");
        let items: Record<string, unknown>[];
        try {
          items = JSON.parse(raw);
        } catch {
          return send(res, 400, "application/json", JSON.stringify({ message: "The request is invalid." }));
        }
        const answers = (Array.isArray(items) ? items : []).map((item) => {
          const t = [...transactions.values()].find((x) => x.transactionId === item.TransactionId);
          const amount = Number(item.Amount);
          const values: Record<string, string> = {
            TransactionId: String(item.TransactionId ?? ""),
            Amount: amount.toFixed(2),
            RefundReason: String(item.RefundReason ?? ""),
            NotifyUrl: String(item.NotifyUrl ?? ""),
          };
          const errors: string[] = [];
          if (item.HashCheck !== fakeOzowHash("refund", values, options.privateKey)) errors.push("Invalid hash check");
          if (t?.status !== "Complete") errors.push("Transaction not found or not complete");
          const left = t
            ? Math.round(t.amount * 100) -
              refunds.filter((r) => r.transactionId === t.transactionId).reduce((n, r) => n + Math.round(r.amount * 100), 0)
            : 0;
          if (!(amount > 0) || Math.round(amount * 100) > left) errors.push("Refund amount exceeds the amount available");
          if (state.refundMode === "refuse") errors.push("Insufficient refund float balance");
          if (errors.length || !t) return { refundId: null, transactionId: item.TransactionId, refundAmount: amount, errors };
          const refund = {
            id: randomUUID(),
            transactionId: t.transactionId,
            transactionReference: t.request.TransactionReference,
            amount,
            reason: values.RefundReason,
            status: 0,
            createdAt: new Date(),
          };
          refunds.push(refund);
          return { refundId: refund.id, transactionId: t.transactionId, refundAmount: amount, errors: [] };
        });
        const lostHere = answers.some((a) =>
          [...transactions.entries()].some(([reference, t]) => t.transactionId === a.transactionId && lostRefunds.has(reference)),
        );
        if (state.refundMode === "lost" || lostHere) {
          res.socket?.destroy();
          return;
        }
        return send(res, 200, "application/json", JSON.stringify(answers));
      }
    }

    // A browser test's switch (not Ozow's): this payment's refunds are lost from now on.
    if (req.method === "POST" && url.pathname === "/_fake/lose-refunds") {
      const reference = new URLSearchParams(raw).get("reference") ?? "";
      if (!transactions.has(reference)) return send(res, 404, "text/plain", `no transaction ${reference}`);
      lostRefunds.add(reference);
      return send(res, 204, "text/plain", "");
    }

    if (req.method === "POST" && url.pathname === "/") {
      const fields = Object.fromEntries(fakeParseForm(raw));
      const expected = fakeOzowHash("payment", fields, options.privateKey);
      if (fields.SiteCode !== options.siteCode || fields.HashCheck !== expected || fields.CurrencyCode !== "ZAR") {
        return send(res, 400, "text/html", "<h1>Invalid payment request</h1>");
      }
      const t = transactions.get(fields.TransactionReference) ?? {
        transactionId: randomUUID(),
        request: fields,
        status: "Pending" as const,
        amount: Number(fields.Amount),
      };
      transactions.set(fields.TransactionReference, t);
      const ref = encodeURIComponent(fields.TransactionReference);
      return send(
        res,
        200,
        "text/html; charset=utf-8",
        `<!doctype html><html lang="en"><head><title>Ozow (test)</title></head><body><main><p>Ozow test payment</p><h1>R${fields.Amount}</h1>` +
          `<form method="post" action="/pay/${ref}/Complete"><button type="submit">Pay with my bank</button></form>` +
          `<form method="post" action="/pay/${ref}/Cancelled"><button type="submit">Cancel</button></form></main></body></html>`,
      );
    }

    const action = /^\/pay\/([^/]+)\/(Complete|Cancelled)$/.exec(url.pathname);
    if (req.method === "POST" && action) {
      const reference = decodeURIComponent(action[1]);
      const t = transactions.get(reference);
      if (!t) return send(res, 404, "text/plain", "No such transaction");
      t.status = action[2] as FakeOzowStatus;
      await fake.sendNotification(reference).catch(() => undefined);
      res.writeHead(303, { location: t.status === "Complete" ? t.request.SuccessUrl : t.request.CancelUrl });
      return res.end();
    }
    return send(res, 404, "text/plain", "Not found");
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => send(res, 500, "text/plain", String(error)));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const fake: FakeOzow = {
    url: `http://127.0.0.1:${port}`,
    transactions,
    get apiDown() {
      return state.apiDown;
    },
    set apiDown(value) {
      state.apiDown = value;
    },
    get statusQueries() {
      return state.statusQueries;
    },
    refunds,
    get refundMode() {
      return state.refundMode;
    },
    set refundMode(value) {
      state.refundMode = value;
    },
    get refundListDown() {
      return state.refundListDown;
    },
    set refundListDown(value) {
      state.refundListDown = value;
    },
    refundCalls,
    lostRefunds,
    complete(reference, status) {
      const t = transactions.get(reference);
      if (!t) throw new Error(`fake Ozow: no transaction ${reference}`);
      t.status = status;
    },
    notificationFor,
    async sendNotification(reference, opts = {}) {
      const n = notificationFor(reference, opts);
      const target = new URL(n.url);
      const to = opts.origin ? `${opts.origin.replace(/\/$/, "")}${target.pathname}${target.search}` : n.url;
      return fakePost(to, { "content-type": "application/x-www-form-urlencoded" }, n.body);
    },
    close: () => closeFakeServer(server),
  };
  return fake;
}
