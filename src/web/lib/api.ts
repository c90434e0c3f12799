// The one way the web app talks to the server: JSON over fetch, same-origin cookies, and the
// server's single error shape {"error": {"code", "message", "fields"}} turned into ApiError.
import type { ApiErrorBody } from "@/shared/api";

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;

  constructor(status: number, code: string, message: string, fields: Record<string, string> = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

type Method = "POST" | "PUT" | "PATCH" | "DELETE";

/** GET a JSON resource under /api (pass the path without the /api prefix or with it). */
export function apiGet<T>(path: string, init: { signal?: AbortSignal } = {}): Promise<T> {
  return request<T>("GET", path, undefined, init.signal);
}

/** Send a JSON body with a state-changing method (headers: e.g. an Idempotency-Key). */
export function apiSend<T>(
  method: Method,
  path: string,
  body?: unknown,
  init: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<T> {
  return request<T>(method, path, body, init.signal, init.headers);
}

function apiUrl(path: string): string {
  if (path.startsWith("/api/") || path === "/api") return path;
  return `/api${path.startsWith("/") ? path : `/${path}`}`;
}

async function request<T>(
  method: string,
  path: string,
  body: unknown,
  signal?: AbortSignal,
  extra: Record<string, string> = {},
): Promise<T> {
  const headers: Record<string, string> = { ...extra, accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(apiUrl(path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") throw error;
    // No code: the request never reached the server, so retrying may help.
    throw new ApiError(0, "", "Could not reach the server. Check your connection and try again.");
  }
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const json = parseJson(text);
  if (!response.ok) throw toApiError(response, json);
  return json as T;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function toApiError(response: Response, json: unknown): ApiError {
  const error = (json as Partial<ApiErrorBody> | undefined)?.error;
  if (error && typeof error.message === "string") {
    return new ApiError(response.status, error.code ?? "", error.message, error.fields ?? {});
  }
  // A proxy or gateway answered instead of our server (502/503/504): no code, retryable.
  return new ApiError(
    response.status,
    "",
    `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.`,
  );
}
