// Form bodies as the PHP-era providers (PayFast, Ozow) write and read them, for our fakes only.
// Written from PHP's documented `urlencode` (https://www.php.net/manual/en/function.urlencode.php:
// "all non-alphanumeric characters except -_. are replaced with a percent (%) sign followed by two
// hex digits and spaces encoded as plus (+) signs"; PHP's hex digits are upper-case), byte by byte
// over UTF-8, and deliberately sharing no code with the adapters: a fake that borrowed the
// adapters' encoding would agree with any mistake in it.

const KEPT = /^[A-Za-z0-9_.-]$/;

/** PHP's urlencode(), one UTF-8 byte at a time. */
export function fakePhpUrlencode(value: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(value)) {
    const char = String.fromCharCode(byte);
    if (byte < 0x80 && KEPT.test(char)) out += char;
    else if (byte === 0x20) out += "+";
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** The pairs of an application/x-www-form-urlencoded body, in the order posted (WHATWG URL parsing). */
export function fakeParseForm(raw: string): [string, string][] {
  return [...new URLSearchParams(raw).entries()];
}

/** Pairs as a form body, each name and value PHP-urlencoded. */
export function fakeFormBody(pairs: readonly (readonly [string, string])[]): string {
  return pairs.map(([name, value]) => `${fakePhpUrlencode(name)}=${fakePhpUrlencode(value)}`).join("&");
}
