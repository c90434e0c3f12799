// The building blocks of the shared schemas (schemas.ts and its siblings): trimmed and capped
// strings, names without links, e-mail and phone text, and the rule that waits for valid fields.
import { z } from "zod";
import { isValidEmail, isValidPhone } from "./contact";
import { isSouthAfricanWhatsApp } from "./whatsapp";

export const tooLong = (what: string, max: number) => `${what} must be ${max} characters or fewer`;

/** A trimmed string that may be absent (then ''), capped at `max`. */
export const optionalText = (what: string, max: number) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .max(max, tooLong(what, max))
    .default("");

/** A trimmed, required string; `empty` is the message for missing or blank. */
export const requiredText = (empty: string, what: string, max: number) =>
  z.string({ error: empty }).trim().min(1, empty).max(max, tooLong(what, max));

/**
 * A person's name as the public forms take it (order, interest, the payer at the review step):
 * it is put into the confirmation we send to the address or number typed (issue 30: an order
 * confirmation began "Hi there. Your line is blocked: pay R99 at https://evil.example/pay"), so
 * no links (http:, www., a domain such as evil.example or evil.example/…), no line breaks or
 * other control characters, at most 80 characters.
 */
export const NAME_FORMAT_MESSAGE = "Please enter your name without links or line breaks";
export const NAME_MAX = 80;
const CONTROL_OR_BREAK = /[\p{Cc}\u2028\u2029]/u;
const LINK_WORDS = /(?:[a-z][a-z0-9+.-]*:\/\/|https?:|www\.)/i;
/** a domain followed by a path: evil.example/pay, EVIL.EXAMPLE / pay */
const DOMAIN_AND_PATH = /[\p{L}\p{N}-]+\.[\p{L}\p{N}-]{2,}\s*\//u;
/** a dotted name ending in a lower-case top-level domain: evil.example, pay.me.co.za (not "J.R." or "Mr.Smith") */
const BARE_DOMAIN = /(?:^|[^\p{L}\p{N}])[\p{L}\p{N}-]{2,}(?:\.[\p{L}\p{N}-]+)*\.[a-z]{2,24}(?![\p{L}\p{N}])/u;
export const isPlainName = (v: string) =>
  !CONTROL_OR_BREAK.test(v) && !LINK_WORDS.test(v) && !DOMAIN_AND_PATH.test(v) && !BARE_DOMAIN.test(v);

// The format check runs only when the length checks passed, so a blank field reports one
// message. (Not `abort: true`: an explicit abort would also stop the object-level rules of
// the form, which should report every problem at once.)
const onlyIfNoIssue = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };
export const nameText = (empty: string, what: string) =>
  z
    .string({ error: empty })
    .trim()
    .min(1, empty)
    .max(NAME_MAX, tooLong(what, NAME_MAX))
    .refine(isPlainName, { message: NAME_FORMAT_MESSAGE, ...onlyIfNoIssue });
export const emailText = (message: string, empty = message) =>
  z
    .string({ error: empty })
    .trim()
    .min(1, empty)
    .max(254, tooLong("Email address", 254))
    .refine(isValidEmail, { message, ...onlyIfNoIssue });

// E.164 numbers have at most 15 digits; the text may carry spaces, '+', brackets and dashes.
const MAX_PHONE_DIGITS = 15;
export const phoneText = (message: string, empty = message) =>
  z
    .string({ error: empty })
    .trim()
    .min(1, empty)
    .max(30, tooLong("Phone number", 30))
    // A South African number in any form people type it; stored as 27… (toStoredWhatsApp).
    .refine((v) => isValidPhone(v) && v.replace(/\D/g, "").length <= MAX_PHONE_DIGITS && isSouthAfricanWhatsApp(v), {
      message,
      ...onlyIfNoIssue,
    });

/**
 * Run a cross-field rule as soon as the fields it reads are valid, even while other fields
 * are still wrong, so a form shows every problem at once (zod skips object rules otherwise).
 */
export const whenFieldsValid = (...keys: string[]) => ({
  when: ({ issues }: { issues: readonly { path?: readonly PropertyKey[] }[] }) => !issues.some((i) => keys.includes(String(i.path?.[0]))),
});

/** '' and null count as "not given" for optional query values and optional fields that have a format. */
export const blankToUndefined = (v: unknown) => ((typeof v === "string" && v.trim() === "") || v === null ? undefined : v);

export const marketingOptIn = z.boolean({ error: "Marketing consent must be yes or no" }).default(false);
