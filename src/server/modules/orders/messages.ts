// The words of an order and an interest: the WhatsApp text the customer sends us, the
// e-mails to the business and to the customer, and the interest replies. Pure functions of
// the saved lead and the business profile, so a replayed submission gets the same words.

import type { leads } from "@/server/db/schema";
import type { BusinessProfile } from "@/server/lib/business";
import { signOff } from "@/server/lib/business";
import type { OutboxMessage } from "@/server/lib/outbox";
import { TRIAL_AGAIN_FORM } from "@/server/modules/trials/again";
import { formatDateTime } from "@/shared/dates";
import { deviceOfLead } from "@/shared/device-line-schemas";
import { LINE_TYPE_LABELS } from "@/shared/device-lines";
import { formatRand } from "@/shared/money";
import { DEVICE_LABELS, FREE_TRIAL_DURATION, FREE_TRIAL_DURATION_LABEL, INTERNET_PLATFORM_LABELS } from "@/shared/options";
import { formatPhoneForDisplay } from "@/shared/whatsapp";

/** The lead columns the messages read: a saved `leads` row fits. */
export type LeadFacts = Pick<
  typeof leads.$inferSelect,
  | "id"
  | "form_type"
  | "name"
  | "email"
  | "whatsapp"
  | "whatsapp_digits"
  | "package_name"
  | "package_price"
  | "duration"
  | "device"
  | "internet_platform"
  | "other_platform"
  | "internet_speed"
  | "communication_method"
  | "marketing_opt_in"
  | "ip"
  | "created_at"
> & {
  /** the body as the browser sent it (the order form adds the price it showed, `shownPrice`) */
  payload?: unknown;
};

const NOT_GIVEN = "not given";

/** A free trial asked for, first or again (a trial asked again reads the same everywhere: trials/again.ts). */
export const isTrialLead = (lead: Pick<LeadFacts, "form_type">) => lead.form_type === "free-trial" || lead.form_type === TRIAL_AGAIN_FORM;

export function durationLabel(duration: string): string {
  return duration === FREE_TRIAL_DURATION ? FREE_TRIAL_DURATION_LABEL : duration;
}

export function deviceLabel(device: string): string {
  return DEVICE_LABELS[device as keyof typeof DEVICE_LABELS] ?? device;
}

/** 'Fibre', or for 'other' the platform the customer typed ('Other: Starlink'). */
export function platformLabel(platform: string, other: string): string {
  if (platform === "other") return other ? `Other: ${other}` : "Other";
  return INTERNET_PLATFORM_LABELS[platform as keyof typeof INTERNET_PLATFORM_LABELS] ?? platform;
}

/** 'R650' for a number, 'FREE' and other text as sent. */
export function priceLabel(price: string): string {
  const value = price.trim();
  return /^\d+(\.\d+)?$/.test(value) ? formatRand(Number(value)) : value;
}

/** "Label: value" lines for the values that were given. */
function lines(pairs: [string, string][]): string[] {
  return pairs.filter(([, value]) => value.trim() !== "").map(([label, value]) => `${label}: ${value}`);
}

/** 'MAG box, MAC 00:1A:79:12:34:56' when the order named a box (issue 32); '' for an app's line. */
function boxLabel(lead: Pick<LeadFacts, "payload">): string {
  const box = deviceOfLead(lead.payload as Record<string, unknown> | undefined);
  return box.line_type === "m3u" ? "" : `${LINE_TYPE_LABELS[box.line_type]}, MAC ${box.line_mac}`;
}

function orderLines(lead: LeadFacts): string[] {
  return lines([
    ["Package", lead.package_name],
    ["Duration", durationLabel(lead.duration)],
    ["Device", deviceLabel(lead.device)],
    ["Box", boxLabel(lead)],
    ["Internet", platformLabel(lead.internet_platform, lead.other_platform)],
    ["Speed", lead.internet_speed],
  ]);
}

/** '+27 82 123 4567', and what the customer typed when it differs, so nothing is lost. */
function phoneWithTyped(lead: Pick<LeadFacts, "whatsapp" | "payload">): string {
  // The lead keeps the number in its stored form (27…); the submission keeps it as typed.
  const asTyped = (lead.payload as Record<string, unknown> | undefined)?.whatsapp;
  const typed = typeof asTyped === "string" && asTyped.trim() ? asTyped.trim() : lead.whatsapp;
  const shown = formatPhoneForDisplay(typed);
  return !shown || shown === typed ? typed : `${shown} (typed as ${typed})`;
}

/** POPIA: marketing consent can be withdrawn in every message; the way is a person, not the no-reply sender. */
function optOutLine(business: BusinessProfile): string {
  const where = business.supportEmail ? `on WhatsApp or at ${business.supportEmail}` : "on WhatsApp";
  return `You chose to hear about specials and offers. To stop them at any time, tell us ${where}.`;
}

/**
 * The reference a person reads and quotes: the first 8 characters of the lead's id, upper case,
 * in two groups ("1A2B-3C4D"), never the whole UUID. The business's note gives both, so the
 * owner can match the one the customer quotes to the lead.
 */
export function leadReference(lead: Pick<LeadFacts, "id">): string {
  const hex = lead.id.replace(/-/g, "").slice(0, 8).toUpperCase();
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
}

/** The first name to greet with ("there" when none was given). */
const firstName = (name: string) => name.trim().split(/\s+/)[0] || "there";

const received = (lead: LeadFacts) => `${formatDateTime(lead.created_at)} (SAST)`;

// ---- orders ------------------------------------------------------------------------------

/** The text the order's WhatsApp link opens with: the order, ready to send to the business. */
export function orderWhatsAppText(lead: LeadFacts, business: BusinessProfile): string {
  const opening = isTrialLead(lead)
    ? `Hi ${business.companyName}, I'd like to start my free 24-hour trial.`
    : `Hi ${business.companyName}, I've just placed an order on your website.`;
  return [opening, ...lines([["Name", lead.name]]), ...orderLines(lead), `Reference: ${leadReference(lead)}`].join("\n");
}

/** The order's price for the business: ours, and what the page showed when that differs. */
function orderPriceLine(lead: LeadFacts): string {
  const price = priceLabel(lead.package_price);
  const shown = (lead.payload as { shownPrice?: unknown } | null | undefined)?.shownPrice;
  const shownText = typeof shown === "string" ? shown.trim().slice(0, 20) : "";
  if (!price) return shownText ? `${shownText} (as shown on the website; not a package we sell now)` : "";
  return shownText && shownText !== price ? `${price} (the website showed ${shownText})` : price;
}

/**
 * The note to the business: every field, the marketing consent and where the order came from. To
 * the owner's alerts e-mail (`alertsEmail`, lib/owner-alerts.ts), never the public support address.
 */
export function orderBusinessEmail(lead: LeadFacts, ownerEmail: string): OutboxMessage {
  const trial = isTrialLead(lead);
  const what = trial ? "free trial request" : "order";
  const choice = [lead.package_name, durationLabel(lead.duration)].filter(Boolean).join(", ");
  const field = (label: string, value: string): string => `${label}: ${value.trim() === "" ? NOT_GIVEN : value}`;
  const body = [
    `New ${what} on the website.`,
    "",
    field("Reference", `${leadReference(lead)} (lead ${lead.id})`),
    field("Received", received(lead)),
    field("Form", trial ? "Free trial" : "Order"),
    "",
    field("Full name", lead.name),
    field("E-mail", lead.email),
    field("WhatsApp", phoneWithTyped(lead)),
    field("Package", lead.package_name),
    field("Duration", durationLabel(lead.duration)),
    field("Price", orderPriceLine(lead)),
    field("Device", lead.device ? `${deviceLabel(lead.device)} (${lead.device})` : ""),
    ...(boxLabel(lead) ? [field("Box", boxLabel(lead))] : []),
    field("Internet platform", lead.internet_platform ? platformLabel(lead.internet_platform, "") : ""),
    field("Other platform", lead.other_platform),
    field("Internet speed", lead.internet_speed),
    field("Marketing opt-in", lead.marketing_opt_in ? `Yes, given ${received(lead)} with this ${what}` : "No"),
    field("IP address", lead.ip),
    "",
    ...(lead.whatsapp_digits ? [`Chat to them on WhatsApp: https://wa.me/${lead.whatsapp_digits}`] : []),
    "The lead is in the admin under Leads.",
  ].join("\n");
  return {
    channel: "email",
    recipient: ownerEmail,
    subject: `New ${what}: ${lead.name}${choice ? ` - ${choice}` : ""}`,
    body,
    kind: "order",
    lead_id: lead.id,
    dedupe_key: `lead:${lead.id}:business`,
  };
}

/** The customer's confirmation: what they asked for, what happens next, how to pay or start. */
export function orderCustomerEmail(lead: LeadFacts, business: BusinessProfile): OutboxMessage {
  const trial = isTrialLead(lead);
  const phone = formatPhoneForDisplay(lead.whatsapp) || lead.whatsapp;
  const next = trial
    ? [
        "What happens next:",
        `We'll send your trial line details (a username, a password and a server address) on WhatsApp to ${phone} during support hours (${business.supportHours}).`,
        "The trial runs for 24 hours, so have your player app installed before you start.",
      ]
    : [
        "What happens next:",
        `We'll contact you on WhatsApp at ${phone} during support hours (${business.supportHours}) to confirm your order and send the payment details.`,
        "You can pay by card through a secure payment link, or by EFT with your own payment reference.",
        "As soon as your payment is confirmed we send your line details (a username, a password and a server address).",
      ];
  const body = [
    `Hi ${firstName(lead.name)},`,
    "",
    trial
      ? `Thanks for asking for a free 24-hour trial with ${business.companyName}. We've saved your request.`
      : `Thanks for your order with ${business.companyName}. We've saved it.`,
    "",
    "What you asked for:",
    ...orderLines(lead).map((line) => `- ${line}`),
    `- Reference: ${leadReference(lead)}`,
    "",
    ...next,
    "",
    ...(lead.marketing_opt_in ? [optOutLine(business), ""] : []),
    signOff(business),
  ].join("\n");
  return {
    channel: "email",
    recipient: lead.email,
    subject: trial ? `Your ${business.companyName} free trial request` : `Your ${business.companyName} order has been received`,
    body,
    kind: "order-confirmation",
    lead_id: lead.id,
    dedupe_key: `lead:${lead.id}:customer`,
  };
}

// ---- interest ------------------------------------------------------------------------------

const isFreePrice = (price: string) => price.trim().toUpperCase() === "FREE";

function interestChoice(lead: LeadFacts): string {
  const parts = [durationLabel(lead.duration), priceLabel(lead.package_price)].filter(Boolean);
  const name = lead.package_name || "one of our packages";
  return parts.length ? `${name} (${parts.join(", ")})` : name;
}

/** The reply on the channel the customer chose: they'll be contacted for the trial or to pay. */
export function interestCustomerMessage(lead: LeadFacts, firstName: string, business: BusinessProfile): OutboxMessage {
  const byWhatsApp = lead.communication_method === "whatsapp";
  const how = byWhatsApp ? "on WhatsApp" : "by e-mail";
  const next = isFreePrice(lead.package_price)
    ? `We'll contact you ${how} during support hours (${business.supportHours}) to set up your free 24-hour trial. Free trials aren't available on sport event days.`
    : `We'll contact you ${how} during support hours (${business.supportHours}) with the payment details: a secure card payment link or EFT with your own reference.`;
  const body = [
    `Hi ${firstName},`,
    "",
    `Thanks for your interest in ${interestChoice(lead)} with ${business.companyName}.`,
    next,
    "",
    ...(lead.marketing_opt_in ? [optOutLine(business), ""] : []),
    signOff(business),
  ].join("\n");
  return {
    channel: byWhatsApp ? "whatsapp" : "email",
    recipient: byWhatsApp ? lead.whatsapp_digits : lead.email,
    subject: byWhatsApp ? undefined : `Thanks for your interest in ${business.companyName}`,
    body,
    kind: "interest-confirmation",
    lead_id: lead.id,
    dedupe_key: `lead:${lead.id}:customer`,
  };
}

/** The business's note of an interest form, to the owner's alerts e-mail as an order's. */
export function interestBusinessEmail(lead: LeadFacts, ownerEmail: string): OutboxMessage {
  const field = (label: string, value: string): string => `${label}: ${value.trim() === "" ? NOT_GIVEN : value}`;
  const body = [
    `New interest on the website: contact them ${lead.communication_method === "whatsapp" ? "on WhatsApp" : "by e-mail"}.`,
    "",
    field("Reference", lead.id),
    field("Received", received(lead)),
    "",
    field("Name", lead.name),
    field("E-mail", lead.email),
    field("WhatsApp", phoneWithTyped(lead)),
    field("Preferred contact", lead.communication_method === "whatsapp" ? "WhatsApp" : "E-mail"),
    field("Package", lead.package_name),
    field("Price", priceLabel(lead.package_price)),
    field("Duration", durationLabel(lead.duration)),
    field("Marketing opt-in", lead.marketing_opt_in ? `Yes, given ${received(lead)} with this interest form` : "No"),
    field("IP address", lead.ip),
    "",
    isFreePrice(lead.package_price) ? "They want the free trial: set it up with them." : "Send them the payment details.",
    ...(lead.whatsapp_digits ? [`Chat to them on WhatsApp: https://wa.me/${lead.whatsapp_digits}`] : []),
  ].join("\n");
  return {
    channel: "email",
    recipient: ownerEmail,
    subject: `New interest: ${lead.name}${lead.package_name ? ` - ${lead.package_name}` : ""}`,
    body,
    kind: "interest",
    lead_id: lead.id,
    dedupe_key: `lead:${lead.id}:business`,
  };
}
