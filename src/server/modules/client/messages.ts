// The client portal's customer messages: the password-reset link and the notice that a
// password changed. Short, plain text, naming the business, saying what happens next, ending
// with the sign-off (docs/architecture.md, "House style"). Service messages, not marketing: opt-in does not apply.

import { type BusinessProfile, signOff } from "@/server/lib/business";
import { commonVars, type OwnerTemplates, type RenderedMessage, renderMessage } from "@/server/lib/message-templates";
import { SECRET_PLACEHOLDER } from "@/server/lib/outbox";
import { formatDateTime } from "@/shared/dates";

export interface Message {
  subject: string;
  body: string;
}

const greeting = (name: string) => (name.trim() ? `Hi ${name.trim().split(/\s+/)[0]},` : "Hi,");

/** The reset message's variables (the owner's template, shared/message-templates.ts); the link only ever as the secret's placeholder. */
export function resetLinkVars(business: BusinessProfile, facts: { name: string; username: string }) {
  return { ...commonVars(business, facts.name), username: facts.username, reset_link: SECRET_PLACEHOLDER };
}

/** The reset link's message in the owner's words; the link itself goes in as the message is sent. */
export function resetLinkMessage(
  business: BusinessProfile,
  facts: { name: string; username: string },
  templates: OwnerTemplates,
): RenderedMessage {
  return renderMessage(templates, "password-reset", resetLinkVars(business, facts));
}

export function passwordChangedMessage(
  business: BusinessProfile,
  facts: { name: string; username: string; at: Date; signedOut: "everywhere" | "other-devices" },
): Message {
  const after =
    facts.signedOut === "everywhere"
      ? `You have been signed out everywhere; sign in again with the new password at ${business.publicUrl}/client/login`
      : "Any other device that was signed in has been signed out.";
  const body = [
    greeting(facts.name),
    "",
    `The password of your ${business.companyName} client portal account (username: ${facts.username}) was changed on ${formatDateTime(facts.at)} (SAST). ${after}`,
    "",
    "If this wasn't you, contact us straight away so we can secure your account.",
    "",
    signOff(business),
  ].join("\n");
  return { subject: `${business.companyName}: your client portal password was changed`, body };
}

/** To the OLD contact when a client's number or address changed: if it was not them, they can act. */
export function contactChangedMessage(
  business: BusinessProfile,
  facts: { name: string; username: string; what: "whatsapp" | "email"; to: string; at: Date },
): Message {
  const what = facts.what === "whatsapp" ? "WhatsApp number" : "e-mail address";
  const body = [
    greeting(facts.name),
    "",
    `The ${what} of your ${business.companyName} account (username: ${facts.username}) was changed to ${facts.to} on ${formatDateTime(facts.at)} (SAST), confirmed with a code sent to the new ${what}. Messages now go there.`,
    "",
    "If this wasn't you, contact us straight away so we can secure your account.",
    "",
    signOff(business),
  ].join("\n");
  return { subject: `${business.companyName}: your ${what} was changed`, body };
}
