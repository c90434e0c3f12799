// Contact details typed by visitors (spec §5 download instructions; reused by the forms).

/** Spec §9: minimum phone digits. */
export const MIN_PHONE_DIGITS = 9;

export const CONTACT_MESSAGES = Object.freeze({
  missing: "Please enter contact information",
  phone: "Please enter a valid phone number",
  email: "Please enter a valid email address",
});

/** Spec §5: at least 9 digits once everything that is not a digit is stripped. */
export function isValidPhone(input: string): boolean {
  return input.replace(/\D/g, "").length >= MIN_PHONE_DIGITS;
}

// A deliberately simple x@y.z pattern (spec §5), a little tighter than "anything@anything.any"
// so that what passes is an address a mail server will take: common local-part characters,
// dot-separated domain labels, a top-level domain of letters.
const EMAIL_PATTERN =
  /^[A-Za-z0-9._%+'-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;

export function isValidEmail(input: string): boolean {
  return input.length <= 254 && EMAIL_PATTERN.test(input.trim());
}

/** The spec §5 message for a download-instructions contact, or null when it is fine. */
export function validateInstructionContact(type: "whatsapp" | "email", contact: string): string | null {
  const value = contact.trim();
  if (!value) return CONTACT_MESSAGES.missing;
  if (type === "whatsapp") return isValidPhone(value) ? null : CONTACT_MESSAGES.phone;
  return isValidEmail(value) ? null : CONTACT_MESSAGES.email;
}

// ---- one mailbox, many spellings ----------------------------------------------------------------

/** Providers that ignore dots in the local part, and the one domain each is also known by. */
const DOTLESS_DOMAINS: Record<string, string> = { "gmail.com": "gmail.com", "googlemail.com": "gmail.com" };
/**
 * Providers that deliver `name+anything@` to `name@`. Yahoo's tags use `-`, which is also an
 * ordinary character in its names, so Yahoo is left as typed.
 */
const PLUS_TAG_DOMAINS = new Set([
  "gmail.com",
  "outlook.com",
  "hotmail.com",
  "live.com",
  "icloud.com",
  "me.com",
  "protonmail.com",
  "proton.me",
  "fastmail.com",
]);

/**
 * The mailbox an address delivers to, for "one per e-mail address" rules (issue 46): lower case,
 * and for providers known to ignore them, dots (Gmail) and `+tags` dropped, so `A.B+1@gmail.com`,
 * `ab@googlemail.com` and `ab@gmail.com` are one key. Other providers: the address in lower case.
 */
export function mailboxKey(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at <= 0) return address;
  let local = address.slice(0, at);
  const typedDomain = address.slice(at + 1);
  const domain = DOTLESS_DOMAINS[typedDomain] ?? typedDomain;
  if (PLUS_TAG_DOMAINS.has(domain)) local = local.split("+")[0];
  if (domain in DOTLESS_DOMAINS) local = local.replaceAll(".", "");
  // a tag alone ("+x@gmail.com") is not a mailbox: keep the address as typed
  return local ? `${local}@${domain}` : address;
}
