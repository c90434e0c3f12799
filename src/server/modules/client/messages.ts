// The client portal's customer messages: the password-reset link and the notice that a
// password changed. Short, plain text, naming the business, saying what happens next, ending
// with the sign-off (docs/architecture.md, "House style"). Service messages, not marketing: opt-in does not apply.

import { type BusinessProfile, signOff } from "@/server/lib/business";
import { RESET_TOKEN_TTL_MINUTES } from "@/shared/client-schemas";
import { formatDateTime } from "@/shared/dates";

export interface Message {
  subject: string;
  body: string;
}

const greeting = (name: string) => (name.trim() ? `Hi ${name.trim().split(/\s+/)[0]},` : "Hi,");

export function resetLinkMessage(business: BusinessProfile, facts: { name: string; username: string; link: string }): Message {
  const body = [
    greeting(facts.name),
    "",
    `We got a request to reset the password of your ${business.companyName} client portal account (username: ${facts.username}).`,
    "",
    `Choose a new password here: ${facts.link}`,
    "",
    `The link works once and expires in ${RESET_TOKEN_TTL_MINUTES} minutes. If you didn't ask for this, ignore this message: your password stays as it is.`,
    "",
    signOff(business),
  ].join("\n");
  return { subject: `${business.companyName}: reset your client portal password`, body };
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
