// The API's single error shape (docs/architecture.md, "API"):
//   {"error": {"code": "...", "message": "...", "fields": {...}}}
export type ErrorCode =
  | "validation"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "rate_limited"
  | "unavailable"
  | "internal"
  | (string & {});

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, fields?: Record<string, string>) => new AppError(400, "validation", message, fields);
export const unauthorized = (message = "Please sign in.") => new AppError(401, "unauthorized", message);
export const notFound = (message = "Not found.") => new AppError(404, "not_found", message);
export const conflict = (message: string, fields?: Record<string, string>) => new AppError(409, "conflict", message, fields);
export const tooManyRequests = (retryAfterSeconds: number, message = "Too many requests. Please wait a minute and try again.") =>
  new AppError(429, "rate_limited", message, undefined, { "retry-after": String(Math.max(1, Math.ceil(retryAfterSeconds))) });

export interface ErrorBody {
  error: { code: string; message: string; fields?: Record<string, string> };
}

export function errorBody(code: string, message: string, fields?: Record<string, string>): ErrorBody {
  return { error: fields && Object.keys(fields).length ? { code, message, fields } : { code, message } };
}

/** The constraint a unique violation (23505) names, '' when unnamed; null for any other error. */
export function uniqueViolation(error: unknown): string | null {
  // drizzle wraps the driver's error (pg or PGlite) in `cause`.
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const { code, constraint, message, cause } = current as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (code === "23505") {
      if (typeof constraint === "string") return constraint;
      return /unique constraint "([^"]+)"/.exec(typeof message === "string" ? message : "")?.[1] ?? "";
    }
    current = cause;
  }
  return null;
}

/**
 * Whether the database refused a transaction as a whole, certainly before it committed: a
 * constraint (class 23), a deadlock (40P01) or a serialization failure (40001). Nothing of it was
 * written, so its work may be tried again another way. Any other error (a lost connection, say)
 * leaves open whether a COMMIT took effect.
 */
export function refusedWhole(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === "string" && /^(23...|40P01|40001)$/.test(code)) return true;
    current = cause;
  }
  return false;
}
