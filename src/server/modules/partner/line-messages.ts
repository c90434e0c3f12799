// The login of a line a partner sold (issue 45 item 3): their customer gets it by e-mail and
// WhatsApp like any customer, but from the partner: the customer is theirs, not the shop's (no
// client portal, no shop sign-off), so the message names the partner and how to reach them.
// Queued in the transaction that marks the line made, once per line and channel.
import type { PanelLine } from "@/server/adapters/panel/panel";
import { subscriberUrls } from "@/server/adapters/panel/panel";
import { type OutboxMessage, SECRET_PLACEHOLDER, SECRET_URL_PLACEHOLDER } from "@/server/lib/outbox";
import { formatDate } from "@/shared/dates";
import { formatPhoneForDisplay } from "@/shared/whatsapp";

export interface PartnerLineFacts {
  lineId: string;
  customer: { name: string; email: string; whatsapp: string };
  partner: { name: string; email: string; whatsapp: string };
  packageName: string;
  line: Pick<PanelLine, "username" | "password" | "expires_at">;
  streamUrl: string;
  /** a sandbox-panel line: says so, so nobody mistakes it for a working subscription */
  test: boolean;
}

/** The partner's name and every way to reach them, as the customer reads it. */
export function partnerContact(partner: PartnerLineFacts["partner"]): string {
  const ways = [
    partner.whatsapp ? `WhatsApp ${formatPhoneForDisplay(partner.whatsapp)}` : "",
    partner.email ? `e-mail ${partner.email}` : "",
  ].filter(Boolean);
  return ways.length ? `${partner.name}: ${ways.join(", ")}` : partner.name;
}

/** One message per way the customer gave (e-mail, WhatsApp); the password only ever as its placeholder. */
export function partnerLineMessages(facts: PartnerLineFacts): OutboxMessage[] {
  const { customer, partner, line } = facts;
  const urls = subscriberUrls(facts.streamUrl, { username: line.username, password: "PASSWORD" });
  const withSecret = (url: string) => url.replace("password=PASSWORD", `password=${SECRET_URL_PLACEHOLDER}`);
  const first = customer.name.trim().split(/\s+/)[0] || "there";
  const end = line.expires_at ? ` It runs until ${formatDate(line.expires_at)}.` : "";
  const body = [
    `Hi ${first},`,
    "",
    `Your ${facts.packageName} line from ${partner.name} is ready.${end}`,
    ...(facts.test ? ["NOTE: this is a TEST line from the shop's sandbox panel; it does not play real channels."] : []),
    "",
    "Here is how to sign in to your player app:",
    `Server: ${urls.server_url}`,
    `Username: ${line.username}`,
    `Password: ${SECRET_PLACEHOLDER}`,
    "",
    `M3U playlist: ${withSecret(urls.m3u_url)}`,
    `EPG (TV guide): ${withSecret(urls.epg_url)}`,
    "",
    `Questions, or time to renew? Contact ${partnerContact(partner)}.`,
    "",
    `Regards,\n${partner.name}`,
  ].join("\n");
  const subject = `${partner.name}: your ${facts.packageName} line login`;
  const targets = [
    customer.email ? { channel: "email" as const, recipient: customer.email } : null,
    customer.whatsapp ? { channel: "whatsapp" as const, recipient: customer.whatsapp } : null,
  ].filter((t) => t !== null);
  return targets.map((target) => ({
    ...target,
    subject,
    body,
    kind: "credentials",
    secret: line.password,
    dedupe_key: `partner-line-login:${facts.lineId}:${target.channel}`,
  }));
}
