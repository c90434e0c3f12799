// Issue 41 item 7: the pages promise the login on the channel it will really go by, by the same
// rule the outbox worker sends with (jobs/outbox-worker.ts): a WhatsApp message goes by WhatsApp
// only through the Cloud API with an approved template for its kind (or inside the number's open
// 24-hour window, which a page cannot know before the order); else by e-mail when there is an
// address; else it waits for the owner to send it by hand, during support hours.
import { SUPPORT_HOURS } from "./constants";
import { isValidEmail } from "./contact";

/** How the login details will go: GET /api/payments/methods says the shop's ('whatsapp' or 'email'). */
export type LoginChannel = "whatsapp" | "email" | "owner";

/** The channel for this person: the shop's, unless that is e-mail and they gave no address (then the owner's queue). */
export function promisedLoginChannel(shop: LoginChannel | undefined, email: string): LoginChannel {
  if (shop === "whatsapp") return "whatsapp";
  return isValidEmail(email.trim()) ? "email" : "owner";
}

/** When a WhatsApp message waiting for the owner goes. */
export const OWNER_SENDS_WHEN = `We send these on WhatsApp during our support hours (${SUPPORT_HOURS}).`;

/** The hints under the WhatsApp number and the e-mail address, for the channel the login goes by. */
export const LOGIN_HINTS: Record<LoginChannel, { whatsapp: string; email: string }> = {
  whatsapp: { whatsapp: "Your login details are sent here.", email: "For your receipts." },
  email: { whatsapp: "We reach you here about your order.", email: "Your login details are sent here." },
  owner: {
    whatsapp: `Your login details are sent here during our support hours (${SUPPORT_HOURS}).`,
    email: "For your receipts. With an address your login details are sent here at once.",
  },
};

/** Where the client portal login goes, as the review step's "what happens next" says it. */
export const LOGIN_GOES: Record<LoginChannel, string> = {
  whatsapp: "to your WhatsApp (and e-mail if given)",
  email: "to your e-mail address",
  owner: `to your WhatsApp during our support hours (${SUPPORT_HOURS})`,
};
