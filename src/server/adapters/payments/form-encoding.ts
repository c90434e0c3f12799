// Form bodies the way PHP-era providers (PayFast, Ozow) read and sign them: PHP's `urlencode`
// (space → '+', every other reserved byte as upper-case %XX, only `-_.` and alphanumerics kept)
// and a parser that keeps the fields in the order they were posted, because the order is signed.

/** PHP's urlencode(): RFC 1738 style, as PayFast's signature examples use it. */
export function phpUrlencode(value: string): string {
  return encodeURIComponent(value)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

/** The pairs of an application/x-www-form-urlencoded body, in order; null when it is not one (bad %-escapes). */
export function parseFormPairs(raw: string): [string, string][] | null {
  const pairs: [string, string][] = [];
  for (const part of raw.split("&")) {
    if (!part) continue;
    const at = part.indexOf("=");
    const key = at < 0 ? part : part.slice(0, at);
    const value = at < 0 ? "" : part.slice(at + 1);
    try {
      pairs.push([decodeURIComponent(key.replace(/\+/g, " ")), decodeURIComponent(value.replace(/\+/g, " "))]);
    } catch {
      return null;
    }
  }
  return pairs;
}

/** The pairs as a body, PHP-encoded (what a browser's form post of them looks like, near enough). */
export function formBody(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([k, v]) => `${phpUrlencode(k)}=${phpUrlencode(v)}`).join("&");
}

/** Amount text like "1450.00" or "1450.5" as whole cents; null for anything else. */
export function centsFromDecimal(text: string): number | null {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
}

/** Whole cents as rand with two decimals: 145000 → "1450.00". */
export function decimalFromCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}
