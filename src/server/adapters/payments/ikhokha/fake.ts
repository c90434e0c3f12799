// A local stand-in for iKhokha's pay-link API, for tests only. It checks what the real
// service checks (IK-APPID and IK-SIGN over path + exact body; 401 when wrong), keeps the
// pay links it made, answers create and getStatus, and can send signed callbacks.
import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { closeFakeServer, fakePost } from "../fake-http";

// iKhokha's protocol as its public example code states it (github.com/ikhokha/ik-pay-api-examples,
// summarised in the product spec's INTEGRATIONS.md), written here from that text and sharing
// nothing with our adapter (adapter.ts, ../signing.ts), so a signing mistake there fails here.

const PAYMENT_PATH = "/public-api/v1/api/payment";
const STATUS_PATH = "/public-api/v1/api/getStatus";

/**
 * IK-SIGN: the URL path (no host, no query) followed by the exact body text; that string escaped
 * as iKhokha's examples do (a backslash before every backslash, double quote and single quote; a
 * NUL character written as backslash-zero); HMAC-SHA256 keyed with the trimmed application
 * secret; lower-case hex.
 */
export function fakeIkhokhaSignature(path: string, body: string, secret: string): string {
  let escaped = "";
  for (const char of path + body) {
    if (char === "\\" || char === '"' || char === "'") escaped += `\\${char}`;
    else if (char === "\u0000") escaped += "\\0";
    else escaped += char;
  }
  return createHmac("sha256", secret.trim()).update(escaped, "utf8").digest("hex");
}

export type FakeOutcome = "SUCCESS" | "FAILURE" | "CANCELLED";

export interface FakePaylink {
  paylinkID: string;
  externalTransactionID: string;
  /** integer cents as created; a test may change it to play a provider that disagrees */
  amount: number;
  status: "PENDING" | FakeOutcome;
  description: string;
  callbackUrl: string;
  /** the create request's body as sent */
  request: Record<string, unknown>;
}

export interface FakeRequestLog {
  method: string;
  path: string;
  appId: string | undefined;
  signature: string | undefined;
  body: string;
  status: number;
}

export interface FakeIkhokha {
  /** http://127.0.0.1:<port> — use as IKHOKHA_API_URL */
  url: string;
  paylinks: Map<string, FakePaylink>;
  requests: FakeRequestLog[];
  /** the next create answers this responseCode instead of '00' */
  refuseNextCreate(responseCode?: string, message?: string): void;
  /** requests wait this long before an answer (timeouts) */
  delayMs: number;
  /** the customer finished paying (or not) on the hosted page */
  complete(paylinkID: string, outcome: FakeOutcome): void;
  /** The signed callback iKhokha would POST; `origin` replaces the callback URL's origin. */
  callbackFor(
    paylinkID: string,
    options?: { origin?: string; status?: FakeOutcome },
  ): { url: string; body: string; headers: Record<string, string> };
  /** POST that callback over HTTP; resolves to the webhook's status code and body. */
  sendCallback(paylinkID: string, options?: { origin?: string; status?: FakeOutcome }): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

export async function startFakeIkhokha(options: { appId: string; appSecret: string }): Promise<FakeIkhokha> {
  const paylinks = new Map<string, FakePaylink>();
  const requests: FakeRequestLog[] = [];
  let refusal: { responseCode: string; message: string } | null = null;

  const state = {
    delayMs: 0,
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const appId = req.headers["ik-appid"] as string | undefined;
    const signature = req.headers["ik-sign"] as string | undefined;
    const log: FakeRequestLog = { method: req.method ?? "", path, appId, signature, body, status: 0 };
    requests.push(log);
    const answer = (status: number, payload: unknown) => {
      log.status = status;
      send(res, status, payload);
    };
    if (state.delayMs > 0) await new Promise((r) => setTimeout(r, state.delayMs));

    if (appId !== options.appId || signature?.trim().toLowerCase() !== fakeIkhokhaSignature(path, body, options.appSecret)) {
      return answer(401, { responseCode: "401", message: "Unauthorised: bad IK-APPID or IK-SIGN" });
    }

    if (req.method === "POST" && path === PAYMENT_PATH) {
      let request: Record<string, unknown>;
      try {
        request = JSON.parse(body);
      } catch {
        return answer(400, { responseCode: "400", message: "Body is not JSON" });
      }
      const urls = request.urls as Record<string, unknown> | undefined;
      const problems = [
        typeof request.entityID === "string" && request.entityID ? "" : "entityID",
        Number.isInteger(request.amount) && (request.amount as number) > 0 ? "" : "amount",
        request.currency === "ZAR" ? "" : "currency",
        request.mode === "live" ? "" : "mode",
        typeof request.requesterUrl === "string" ? "" : "requesterUrl",
        typeof request.externalTransactionID === "string" && request.externalTransactionID ? "" : "externalTransactionID",
        ...["callbackUrl", "successPageUrl", "failurePageUrl", "cancelUrl"].map((k) => (typeof urls?.[k] === "string" ? "" : `urls.${k}`)),
      ].filter(Boolean);
      if (problems.length) return answer(400, { responseCode: "400", message: `Invalid: ${problems.join(", ")}` });
      if (refusal) {
        const r = refusal;
        refusal = null;
        return answer(200, { responseCode: r.responseCode, message: r.message });
      }
      const paylinkID = randomBytes(12).toString("hex");
      paylinks.set(paylinkID, {
        paylinkID,
        externalTransactionID: request.externalTransactionID as string,
        amount: request.amount as number,
        status: "PENDING",
        description: String(request.description ?? ""),
        callbackUrl: urls?.callbackUrl as string,
        request,
      });
      return answer(200, {
        responseCode: "00",
        message: "Success",
        paylinkUrl: `${fake.url}/pay/${paylinkID}`,
        paylinkID,
        externalTransactionID: request.externalTransactionID,
      });
    }

    if (req.method === "GET" && path.startsWith(`${STATUS_PATH}/`)) {
      const id = decodeURIComponent(path.slice(STATUS_PATH.length + 1));
      const paylink = paylinks.get(id);
      if (!paylink) return answer(404, { responseCode: "404", message: "Paylink not found" });
      return answer(200, {
        responseCode: "00",
        paylinkID: paylink.paylinkID,
        externalTransactionID: paylink.externalTransactionID,
        status: paylink.status,
        amount: paylink.amount,
        currency: "ZAR",
      });
    }
    return answer(404, { responseCode: "404", message: "Not found" });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error) => send(res, 500, { responseCode: "500", message: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const callbackFor: FakeIkhokha["callbackFor"] = (paylinkID, opts = {}) => {
    const paylink = paylinks.get(paylinkID);
    if (!paylink) throw new Error(`fake iKhokha: no paylink ${paylinkID}`);
    const status = opts.status ?? (paylink.status === "PENDING" ? "SUCCESS" : paylink.status);
    const target = new URL(paylink.callbackUrl);
    const url = opts.origin ? `${opts.origin.replace(/\/$/, "")}${target.pathname}${target.search}` : paylink.callbackUrl;
    const body = JSON.stringify({
      paylinkID,
      status,
      externalTransactionID: paylink.externalTransactionID,
      responseCode: status === "SUCCESS" ? "00" : "05",
    });
    return {
      url,
      body,
      headers: {
        "content-type": "application/json",
        "ik-appid": options.appId,
        "ik-sign": fakeIkhokhaSignature(target.pathname, body, options.appSecret),
      },
    };
  };

  const fake: FakeIkhokha = {
    url: `http://127.0.0.1:${port}`,
    paylinks,
    requests,
    refuseNextCreate(responseCode = "99", message = "Declined by fake") {
      refusal = { responseCode, message };
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(value: number) {
      state.delayMs = value;
    },
    complete(paylinkID, outcome) {
      const paylink = paylinks.get(paylinkID);
      if (!paylink) throw new Error(`fake iKhokha: no paylink ${paylinkID}`);
      paylink.status = outcome;
    },
    callbackFor,
    async sendCallback(paylinkID, opts) {
      const { url, body, headers } = callbackFor(paylinkID, opts);
      return fakePost(url, headers, body);
    },
    close: () => closeFakeServer(server),
  };
  return fake;
}
