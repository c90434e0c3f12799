// Text PostgreSQL cannot store (a NUL character, an unpaired UTF-16 surrogate) is taken out of
// every JSON body field before a route sees it, so such input is an ordinary wrong username or
// a cleaned field, never a 500 (what a customer typed is kept, as the orders' stored payload
// keeps it). Query parameters are each route's schema's to judge (searches refuse a NUL with a
// 400). Bodies the routes read raw (webhooks, whose signatures cover the exact bytes) are
// strings and left alone.
import type { FastifyInstance } from "fastify";

const MAX_DEPTH = 16;

function clean(value: unknown, depth: number): unknown {
  if (typeof value === "string") return cleanText(value);
  if (!value || typeof value !== "object" || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = clean(value[i], depth + 1);
    return value;
  }
  for (const key of Object.keys(value)) (value as Record<string, unknown>)[key] = clean((value as Record<string, unknown>)[key], depth + 1);
  return value;
}

export function installInputCleaning(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    if (request.body && typeof request.body === "object" && !Buffer.isBuffer(request.body)) clean(request.body, 0);
  });
}

/**
 * The body as received, made storable: PostgreSQL refuses NUL characters in text and jsonb,
 * and unpaired UTF-16 surrogates in jsonb, so those become nothing and U+FFFD; nesting
 * deeper than anything a form sends is cut (a deep JSON bomb would otherwise overflow the
 * stack here or in the database). A body that is not an object is kept under `body`.
 */
export function storablePayload(body: unknown): Record<string, unknown> {
  const value = cleanStored(body, 0);
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : { body: value };
}

/**
 * What a submission keeps in leads.payload: the form's own fields, cleaned, and nothing else
 * (an unknown field, however large, is dropped, not stored).
 */
export function knownFields(payload: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => Object.hasOwn(payload, key)).map((key) => [key, payload[key]]));
}

/** The same cleaning, for the form fields themselves (they land in text columns). */
export function cleanText(text: string): string {
  return text.replace(/\0/g, "").replace(/\p{Cs}/gu, "\uFFFD");
}

function cleanStored(value: unknown, depth: number): unknown {
  if (typeof value === "string") return cleanText(value);
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (value === null || typeof value !== "object") return typeof value === "boolean" ? value : null;
  if (depth >= MAX_DEPTH) return "[nested too deep]";
  if (Array.isArray(value)) return value.map((item) => cleanStored(item, depth + 1));
  // fromEntries defines own properties, so a '__proto__' key stays a plain key.
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [cleanText(k), cleanStored(v, depth + 1)]));
}
