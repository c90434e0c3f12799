// The words the business side sends: the one-click WhatsApp greeting to a lead, the welcome
// for a new client, and the reply to a content request. Short, plain text, naming the
// business, saying what happens next, ending with the sign-off (docs/architecture.md, "House style").

import { type BusinessProfile, signOff } from "@/server/lib/business";
import { commonVars, type OwnerTemplates, renderMessage } from "@/server/lib/message-templates";
import { type OutboxMessage, SECRET_PLACEHOLDER } from "@/server/lib/outbox";
import { numberedSteps } from "@/server/modules/downloads/service";
import { portalPayWays } from "@/shared/constants";
import { formatDate, formatDateTime } from "@/shared/dates";
import { DEVICE_LABELS } from "@/shared/options";
import { buildWhatsAppLink, normaliseWhatsAppNumber } from "@/shared/whatsapp";

const firstName = (name: string) => name.trim().split(/\s+/)[0] || "there";
const deviceLabel = (device: string) => DEVICE_LABELS[device as keyof typeof DEVICE_LABELS] ?? device;

// ---- leads --------------------------------------------------------------------------------------

interface LeadFacts {
  name: string;
  whatsapp: string;
  form_type: string;
  package_name: string;
}

/** What the person asked for, in a few words: 'free 24-hour trial request', 'order for 3 Months'. */
function requestWords(lead: LeadFacts): string {
  if (lead.form_type === "free-trial" || lead.form_type === "trial-again") return "free 24-hour trial request";
  const noun = lead.form_type === "interest" ? "interest in" : "order for";
  if (lead.package_name) return `${noun} the ${lead.package_name} package`;
  return lead.form_type === "interest" ? "enquiry" : "order";
}

/** The admin's one-click chat: to the person's number, greeting them and naming their request. */
export function leadWhatsAppUrl(lead: LeadFacts, business: BusinessProfile): string | null {
  if (!normaliseWhatsAppNumber(lead.whatsapp)) return null;
  const text = `Hi ${firstName(lead.name)}, this is ${business.companyName} about your ${requestWords(lead)} on our website.`;
  return buildWhatsAppLink(lead.whatsapp, text);
}

// ---- clients ------------------------------------------------------------------------------------

export interface Reachable {
  id: string;
  full_name: string;
  email: string;
  whatsapp: string;
  communication_method: string;
}

/**
 * Where a message to a client goes: their preferred channel (the other one when the preferred
 * one has no address); with `alsoEmail`, e-mail too whenever there is an address.
 */
export function channelsFor(
  client: Reachable,
  options: { alsoEmail?: boolean } = {},
): { channel: "email" | "whatsapp"; recipient: string }[] {
  const whatsapp = normaliseWhatsAppNumber(client.whatsapp);
  const email = client.email.trim();
  const preferred =
    client.communication_method === "email"
      ? email
        ? "email"
        : whatsapp
          ? "whatsapp"
          : null
      : whatsapp
        ? "whatsapp"
        : email
          ? "email"
          : null;
  const targets: { channel: "email" | "whatsapp"; recipient: string }[] = [];
  if (preferred) targets.push({ channel: preferred, recipient: preferred === "email" ? email : whatsapp });
  if (options.alsoEmail && email && preferred !== "email") targets.push({ channel: "email", recipient: email });
  return targets;
}

export interface WelcomeFacts {
  client: Reachable & { username: string; status: string; package_name: string; subscription_end: Date | null; device: string };
  /** the featured app for their device, when there is one */
  app: { name: string; download_url: string | null; installation_guide: string | null } | null;
  /** the link to choose a password: every new account gets one, nobody is handed a password */
  setPasswordLink: string;
}

function absoluteLink(url: string | null, publicUrl: string): string | null {
  if (!url) return null;
  if (/^https?:\/\//i.test(url)) return url;
  if (url.startsWith("/") && !url.startsWith("//")) return `${publicUrl}${url}`;
  return null;
}

/** The welcome's variables (the owner's template, shared/message-templates.ts); the set-password link is only ever its placeholder. */
export function welcomeVars(
  business: BusinessProfile,
  facts: Omit<WelcomeFacts, "setPasswordLink"> & { setPasswordLink?: string | boolean },
) {
  const { client, app } = facts;
  const period =
    client.status === "trial"
      ? `Your free trial runs until ${formatDateTime(client.subscription_end)} (SAST).`
      : client.status === "pending"
        ? `Your subscription starts as soon as your payment is confirmed: renew in the portal ${portalPayWays(business.settings)}.`
        : client.subscription_end
          ? `Your ${client.package_name || "subscription"} package is active until ${formatDate(client.subscription_end)}.`
          : "";
  const install: string[] = [];
  if (app) {
    const link = absoluteLink(app.download_url, business.publicUrl);
    install.push(`Install ${app.name}${client.device ? ` on your ${deviceLabel(client.device)}` : ""}:`);
    if (link) install.push(`Download: ${link}`);
    if (app.installation_guide?.trim()) install.push(numberedSteps(app.installation_guide));
  } else {
    install.push(`Apps and install guides for every device: ${business.publicUrl}/downloads`);
  }
  return {
    ...commonVars(business, client.full_name),
    login_link: `${business.publicUrl}/client/login`,
    username: client.username,
    package: client.package_name || "subscription",
    end_date: client.subscription_end ? formatDate(client.subscription_end) : "",
    period,
    // Only ever the placeholder: the link itself is the message's encrypted secret.
    password_step: `Choose your password here (the link works for 7 days, once): ${SECRET_PLACEHOLDER}`,
    install: install.join("\n"),
  };
}

/** The welcome for a new client: portal, username, the link to choose their password, the period, the app to install. */
export function welcomeMessages(business: BusinessProfile, facts: WelcomeFacts, templates: OwnerTemplates): OutboxMessage[] {
  const { client } = facts;
  const message = renderMessage(templates, "welcome", welcomeVars(business, facts));
  return channelsFor(client, { alsoEmail: true }).map((target) => ({
    ...target,
    // the kind's own subject on a WhatsApp row too (the owner's queue shows it)
    subject: message.subject,
    body: message.body,
    kind: "welcome",
    client_id: client.id,
    // The link is a key to their account: stored encrypted, put into the text as it is sent.
    secret: facts.setPasswordLink,
    failure: message.error,
    dedupe_key: `welcome:${client.id}:${target.channel}`,
  }));
}

/** For a returning client whose new order or enquiry was converted: how to renew, on their channel. */
export function renewalMessages(
  business: BusinessProfile,
  facts: { client: Reachable & { username: string; package_name: string; status: string }; leadId: string },
): OutboxMessage[] {
  const { client } = facts;
  const link = `${business.publicUrl}/client?renew=1`;
  const body = [
    `Hi ${firstName(client.full_name)},`,
    "",
    `Thanks for coming back to ${business.companyName}! You already have an account with us (username ${client.username}), so there's nothing new to set up.`,
    `To ${client.status === "active" || client.status === "trial" ? "renew" : "start watching again"}${client.package_name ? ` with the ${client.package_name} package` : ""}, pay in your client portal ${portalPayWays(business.settings)}: ${link}`,
    "Your term is extended as soon as your payment is confirmed, and your login details stay the same.",
    "",
    signOff(business),
  ].join("\n");
  return channelsFor(client).map((target) => ({
    ...target,
    subject: target.channel === "email" ? `${business.companyName}: renew your subscription` : undefined,
    body,
    kind: "renewal-link",
    client_id: client.id,
    lead_id: facts.leadId,
    dedupe_key: `renewal-link:${facts.leadId}:${target.channel}`,
  }));
}

// ---- content requests ---------------------------------------------------------------------------

const STATUS_WORDS: Record<string, string> = {
  new: "We've received it.",
  in_progress: "We're working on it.",
  added: "Good news: it's been added.",
  declined: "Sorry, we can't add it at the moment.",
};

export function contentReplyMessages(
  business: BusinessProfile,
  client: Reachable,
  request: { id: string; title: string; status: string; reply: string },
  dedupeKey: string,
): OutboxMessage[] {
  const body = [
    `Hi ${firstName(client.full_name)},`,
    "",
    `About your request for "${request.title}": ${STATUS_WORDS[request.status] ?? ""}`.trim(),
    "",
    request.reply,
    "",
    `You can see all your requests in the client portal: ${business.publicUrl}/client`,
    "",
    signOff(business),
  ].join("\n");
  return channelsFor(client).map((target) => ({
    ...target,
    subject: target.channel === "email" ? `${business.companyName}: your request for ${request.title}` : undefined,
    body,
    kind: "content-request-reply",
    client_id: client.id,
    dedupe_key: dedupeKey,
  }));
}
