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
