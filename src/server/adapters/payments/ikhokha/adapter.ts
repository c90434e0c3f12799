// iKhokha pay links, exactly as docs/architecture.md, "Integrations" records them from iKhokha's own examples:
// signed JSON requests (IK-APPID, IK-SIGN), amounts in integer cents, responseCode '00' is
// success, status by GET …/getStatus/{paylinkID}, callbacks signed the same way.

import { callProvider, jsonObject, PROVIDER_TIMEOUT_MS, reasonOf, timedOut } from "../http";
import type * as Contract from "../provider";
import { PaymentProviderError, statusFromProvider } from "../provider";
import { headerValue, ikSignature, signatureMatches } from "../signing";

export const IKHOKHA_PAYMENT_PATH = "/public-api/v1/api/payment";
export const IKHOKHA_STATUS_PATH = "/public-api/v1/api/getStatus";

export interface IkhokhaOptions {
  /** IKHOKHA_API_URL, e.g. https://api.ikhokha.com */
  apiUrl: string;
  appId: string;
  appSecret: string;
  /** IKHOKHA_ENTITY_ID; the app id when unset */
  entityId?: string;
  /** PUBLIC_URL: sent as requesterUrl */
  requesterUrl: string;
  timeoutMs?: number;
}

export function createIkhokhaProvider(options: IkhokhaOptions): Contract.PaymentProvider {
  const appId = options.appId.trim();
  const secret = options.appSecret.trim();
  const entityID = options.entityId?.trim() || appId;
  const timeoutMs = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const base = options.apiUrl.replace(/\/+$/, "");

  /** A signed call; `body` is the exact text that is signed and sent. */
  async function call(method: "GET" | "POST", url: string, body: string): Promise<Record<string, unknown>> {
    const path = new URL(url).pathname;
    const response = await callProvider(
      url,
      {
        method,
        headers: {
          "IK-APPID": appId,
          "IK-SIGN": ikSignature(path, body, secret),
          accept: "application/json",
          ...(method === "POST" ? { "content-type": "application/json" } : {}),
        },
        body: method === "POST" ? body : undefined,
      },
      timeoutMs,
      (error) =>
        new PaymentProviderError(
          timedOut(error)
            ? `iKhokha did not answer within ${timeoutMs / 1000} s (${method} ${path})`
            : `iKhokha could not be reached (${method} ${path}): ${reasonOf(error)}`,
        ),
    );
    const text = await response.text().catch(() => "");
    if (!response.ok) {
      throw new PaymentProviderError(`iKhokha answered ${response.status} to ${method} ${path}: ${text.slice(0, 300)}`, response.status);
    }
    const parsed = jsonObject(text);
    if (parsed) return parsed;
    throw new PaymentProviderError(`iKhokha answered ${method} ${path} with something other than a JSON object: ${text.slice(0, 200)}`);
  }

  return {
    name: "ikhokha",

    async createPaylink(input: Contract.CreatePaylinkInput): Promise<Contract.CreatedPaylink> {
      if (!Number.isInteger(input.amountCents) || input.amountCents <= 0) {
        throw new PaymentProviderError(`Amount must be a positive whole number of cents, not ${input.amountCents}`);
      }
      // Key order is fixed so the signed text is predictable; the same string is sent.
      const body = JSON.stringify({
        entityID,
        amount: input.amountCents,
        currency: input.currency,
        requesterUrl: options.requesterUrl,
        description: input.description,
        mode: "live",
        externalTransactionID: input.externalTransactionID,
        urls: {
          callbackUrl: input.urls.callbackUrl,
          successPageUrl: input.urls.successPageUrl,
          failurePageUrl: input.urls.failurePageUrl,
          cancelUrl: input.urls.cancelUrl,
        },
        paymentReference: input.paymentReference ?? input.externalTransactionID,
      });
      const answer = await call("POST", `${base}${IKHOKHA_PAYMENT_PATH}`, body);
      if (answer.responseCode !== "00") {
        throw new PaymentProviderError(
          `iKhokha refused the pay link (responseCode ${String(answer.responseCode ?? "missing")}: ${String(answer.message ?? "no message")})`,
        );
      }
      if (typeof answer.paylinkUrl !== "string" || !answer.paylinkUrl || typeof answer.paylinkID !== "string" || !answer.paylinkID) {
        throw new PaymentProviderError("iKhokha answered success without a paylinkUrl and paylinkID");
      }
      return { paylinkUrl: answer.paylinkUrl, paylinkID: answer.paylinkID };
    },

    async getStatus(paylinkID: string): Promise<Contract.PaylinkStatusResult> {
      const answer = await call("GET", `${base}${IKHOKHA_STATUS_PATH}/${encodeURIComponent(paylinkID)}`, "");
      // The status answer's shape is not documented publicly; we read the names the create
      // answer and the callback use, and refuse to guess an amount (it decides "paid").
      const amount = typeof answer.amount === "string" && /^\d+$/.test(answer.amount) ? Number(answer.amount) : answer.amount;
      if (typeof amount !== "number" || !Number.isInteger(amount)) {
        throw new PaymentProviderError(`iKhokha's status for ${paylinkID} carries no whole-cents amount`);
      }
      return { status: statusFromProvider(answer.status), amountCents: amount };
    },

    verifyCallback(request: Contract.CallbackRequest): boolean {
      if (headerValue(request.headers, "ik-appid")?.trim() !== appId) return false;
      return signatureMatches(headerValue(request.headers, "ik-sign"), request.path, request.rawBody, secret);
    },
  };
}
