// iKhokha's request signature (docs/architecture.md, "Integrations"), also used by our sandbox provider so both
// drive the webhook through the same verification: HMAC-SHA256, keyed with the trimmed
// secret, over the URL path followed by the exact body text, after escaping that string the
// way iKhokha's own examples do. Lowercase hex.
import { createHmac, timingSafeEqual } from "node:crypto";

const NUL = String.fromCharCode(0);

/** A backslash before each `\`, `"` and `'`; NUL becomes `\0` (JavaScript-style escaping). */
export function escapeForSignature(text: string): string {
  return text.replace(/[\\"']/g, "\\$&").replaceAll(NUL, "\\0");
}

/** The IK-SIGN value for a request to `path` (no host, no query) with `body` ('' for a GET). */
export function ikSignature(path: string, body: string, secret: string): string {
  return createHmac("sha256", secret.trim())
    .update(escapeForSignature(path + body), "utf8")
    .digest("hex");
}

/** Constant-time check of a received signature against the one we compute. */
export function signatureMatches(received: string | undefined, path: string, body: string, secret: string): boolean {
  if (!received) return false;
  const expected = Buffer.from(ikSignature(path, body, secret), "utf8");
  const given = Buffer.from(received.trim().toLowerCase(), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** One header's value whatever its case or repetition (Node lower-cases incoming names). */
export function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
