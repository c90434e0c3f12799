// POST /api/orders (the spec's send-new-client-email) with an Idempotency-Key: the same key
// for every attempt at one filled-in form, so a retry after a dropped connection answers the
// order already saved instead of saving it twice.
import { useMutation } from "@tanstack/react-query";
import type { ApiErrorBody, OrderResponse } from "@/shared/api";
import type { OrderFormInput } from "@/shared/schemas";
import type { TrialStarted } from "@/shared/trial-schemas";
import { ApiError } from "@/web/lib/api";

/** The form's fields, plus what the customer saw and agreed to (kept with the lead's payload). */
export interface OrderRequest extends OrderFormInput {
  /** ECT Act s44: the customer asked for the service to start at once (paid plans) */
  immediateStartConsent?: boolean;
  /** the price the order summary showed, e.g. 'R1,450' */
  shownPrice?: string;
}

/** A free trial in instant mode (202): the trial waiting for the code sent to the customer (issue 27). */
export type TrialOrderResponse = { success: true; id: string } & TrialStarted;
export type OrderAnswer = OrderResponse | TrialOrderResponse;

export const isTrialAnswer = (answer: OrderAnswer): answer is TrialOrderResponse => "trialId" in answer;

/** Spec §8: the text thrown when the answer lacks a success flag. */
export const MISSING_SUCCESS_MESSAGE = "Failed to submit order";

export async function createOrder(body: OrderRequest, idempotencyKey: string, signal?: AbortSignal): Promise<OrderAnswer> {
  let response: Response;
  try {
    response = await fetch("/api/orders", {
      method: "POST",
      headers: { accept: "application/json", "content-type": "application/json", "idempotency-key": idempotencyKey },
      body: JSON.stringify(body),
      credentials: "same-origin",
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    throw new ApiError(0, "", "Could not reach the server. Check your connection and try again.");
  }
  const json = (await response.json().catch(() => undefined)) as
    | (Partial<OrderResponse> & Partial<TrialOrderResponse> & Partial<ApiErrorBody>)
    | undefined;
  if (!response.ok) {
    const error = json?.error;
    if (error && typeof error.message === "string")
      throw new ApiError(response.status, error.code ?? "", error.message, error.fields ?? {});
    throw new ApiError(response.status, "", `The server answered ${response.status}.`);
  }
  if (json?.success && typeof json.trialId === "string" && typeof json.sentTo === "string") return json as TrialOrderResponse;
  if (!json?.success || typeof json.whatsappUrl !== "string") throw new Error(MISSING_SUCCESS_MESSAGE);
  return json as OrderResponse;
}

/** A dropped connection or a gateway's 502-504: worth another try with the same key. */
export function isRetryable(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504);
}

/** A UUID for the Idempotency-Key (crypto.randomUUID needs a secure context; plain HTTP falls back). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export interface CreateOrderVariables {
  body: OrderRequest;
  idempotencyKey: string;
}

export function useCreateOrder() {
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: CreateOrderVariables) => createOrder(body, idempotencyKey),
    // Safe to repeat: the key makes the server answer a saved order instead of saving another.
    retry: (failureCount, error) => failureCount < 2 && isRetryable(error),
    retryDelay: (attempt) => 1000 * 2 ** attempt,
  });
}
