// The shop-wide cap on WhatsApp code messages (issue 46 item 2): each authentication template a
// code goes by costs the shop, so past this many in a South African day codes go by e-mail only
// (where the person has an address) and the owner is alerted once that day. One rule for the
// dashboard's settings and the server (lib/code-route.ts, codeRoute).

export const WHATSAPP_CODE_CAP_SETTING = "whatsapp_code_daily_cap";
export const DEFAULT_WHATSAPP_CODE_CAP = 200;
export const WHATSAPP_CODE_CAP_MESSAGE = "The daily cap on WhatsApp code messages must be a whole number from 0 to 100000";

function capOf(text: string): number | null {
  if (!/^\d{1,6}$/.test(text)) return null;
  const cap = Number(text);
  return cap <= 100_000 ? cap : null;
}

/** The cap the setting holds, else the default (an empty or broken value is the default). */
export function whatsappCodeCap(value: string | null | undefined): number {
  return capOf(String(value ?? "").trim()) ?? DEFAULT_WHATSAPP_CODE_CAP;
}

/** The 400 message for a whatsapp_code_daily_cap value (checked where settings are saved), or null when fine or another key. */
export function whatsappCodeCapProblem(key: string, value: string): string | null {
  if (key !== WHATSAPP_CODE_CAP_SETTING) return null;
  return capOf(value.trim()) === null ? WHATSAPP_CODE_CAP_MESSAGE : null;
}
