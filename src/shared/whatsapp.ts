// WhatsApp click-to-chat links (spec §5, docs/architecture.md, "Integrations"): the number in international form
// without '+', South Africa by default.

export const DEFAULT_COUNTRY_CODE = "27";
export const WHATSAPP_BASE_URL = "https://wa.me/";

/**
 * Spec §5: strip non-digits; starting with 27, keep; starting with 0, replace that 0 with
 * 27; otherwise prefix 27. One addition the spec does not cover: a leading '00' is the
 * international dialling prefix ('0027…', '0044…'), so it is dropped and the country code
 * after it kept, where the literal rule would make '27027…'. Empty input gives ''.
 */
export function normaliseWhatsAppNumber(input: string): string {
  const digits = input.replace(/\D/g, "");
  if (!digits) return "";
  if (digits.startsWith("00")) return digits.slice(2);
  if (digits.startsWith(DEFAULT_COUNTRY_CODE)) return digits;
  if (digits.startsWith("0")) return DEFAULT_COUNTRY_CODE + digits.slice(1);
  return DEFAULT_COUNTRY_CODE + digits;
}

/** A South African number in its stored form: 27 and nine digits, the first not 0 (E.164 without '+'). */
const SA_E164 = /^27[1-9]\d{8}$/;

/**
 * The one stored form of a customer's WhatsApp number (docs/architecture.md, "Data"): a South
 * African number typed any way people type it ('082 123 4567', '+27 82 123 4567', '27821234567',
 * '0027 82…') becomes '27821234567'; a foreign or malformed number is null.
 */
export function toStoredWhatsApp(input: string): string | null {
  const digits = normaliseWhatsAppNumber(input);
  return SA_E164.test(digits) ? digits : null;
}

/** Whether `input` is a South African WhatsApp number in any of the forms people type. */
export function isSouthAfricanWhatsApp(input: string): boolean {
  return toStoredWhatsApp(input) !== null;
}

/** https://wa.me/<digits>?text=<encoded text>; no `?text=` without text. */
export function buildWhatsAppLink(number: string, text?: string): string {
  const base = WHATSAPP_BASE_URL + normaliseWhatsAppNumber(number);
  return text ? `${base}?text=${encodeURIComponent(text)}` : base;
}

/** Spec §5: a link that does not start with the messaging service's base address is refused. */
export function isValidWhatsAppLink(url: string): boolean {
  return typeof url === "string" && url.startsWith(WHATSAPP_BASE_URL);
}

/**
 * '+27 82 123 4567' for a South African mobile or landline (27 plus nine digits); any other
 * number as '+' and its digits; '' for no digits.
 */
export function formatPhoneForDisplay(input: string): string {
  const digits = normaliseWhatsAppNumber(input);
  if (!digits) return "";
  const sa = /^27(\d{2})(\d{3})(\d{4})$/.exec(digits);
  return sa ? `+27 ${sa[1]} ${sa[2]} ${sa[3]}` : `+${digits}`;
}
