// The subscriber's line credentials, sent the moment a line is made: the player login (server,
// username, password), the M3U playlist and EPG links, their client portal, and the setup
// guide for their device. Short, plain text, ending with the sign-off (docs/architecture.md,
// "House style").

import type { PanelLine } from "@/server/adapters/panel/panel";
import { subscriberUrls } from "@/server/adapters/panel/panel";
import type { BusinessProfile } from "@/server/lib/business";
import { commonVars, type OwnerTemplates, renderMessage } from "@/server/lib/message-templates";
import { type OutboxMessage, SECRET_PLACEHOLDER, SECRET_URL_PLACEHOLDER } from "@/server/lib/outbox";
import { channelsFor } from "@/server/modules/admin-business/messages";
import { numberedSteps } from "@/server/modules/downloads/service";
import { formatDate } from "@/shared/dates";
import { DEVICE_LABELS } from "@/shared/options";

export interface CredentialsFacts {
  client: {
    id: string;
    full_name: string;
    email: string;
    whatsapp: string;
    communication_method: string;
    username: string;
    device: string;
  };
  line: Pick<PanelLine, "username" | "password" | "expires_at">;
  streamUrl: string;
  /** a sandbox-panel line: says so, so nobody mistakes it for a working subscription */
  test: boolean;
  app: { name: string; download_url: string | null; installation_guide: string | null } | null;
  jobId: string;
}

/** The credentials' variables (the owner's template, shared/message-templates.ts); the password only ever as its placeholder. */
export function credentialsVars(business: BusinessProfile, facts: Omit<CredentialsFacts, "jobId">) {
  const { client, line, app } = facts;
  // The password is the line itself: stored encrypted, put into the text (and, URL-encoded,
  // into the M3U and EPG links) only as the message is sent.
  const urls = subscriberUrls(facts.streamUrl, { username: line.username, password: "PASSWORD" });
  const withSecret = (url: string) => url.replace("password=PASSWORD", `password=${SECRET_URL_PLACEHOLDER}`);
  const device = DEVICE_LABELS[client.device as keyof typeof DEVICE_LABELS] ?? "";
  const guide: string[] = [];
  if (app) {
    guide.push(`Set up ${app.name}${device ? ` on your ${device}` : ""}:`);
    if (app.installation_guide?.trim()) guide.push(numberedSteps(app.installation_guide));
  }
  return {
    ...commonVars(business, client.full_name),
    username: client.username,
    line_note: facts.test
      ? "NOTE: this is a TEST line from the shop's sandbox panel; it does not play real channels."
      : "Here is how to sign in to your player app:",
    server_url: urls.server_url,
    line_username: line.username,
    password: SECRET_PLACEHOLDER,
    end_date: line.expires_at ? formatDate(line.expires_at) : "",
    m3u_link: withSecret(urls.m3u_url),
    epg_link: withSecret(urls.epg_url),
    setup_guide: guide.join("\n"),
  };
}

/** Where a MAG box's portal setting points: the panel's Stalker portal under the stream URL. */
export const magPortalUrl = (streamUrl: string) => `${streamUrl.replace(/\/+$/, "")}/c/`;

/**
 * A MAG box's or Enigma2 receiver's line: nothing to sign in with — the box is known by its MAC —
 * so the message says where to point the box (the portal URL for MAG), not an M3U link.
 */
export function deviceLineMessages(
  business: BusinessProfile,
  facts: Omit<CredentialsFacts, "app"> & { device: { type: "mag" | "enigma2"; mac: string } },
): OutboxMessage[] {
  const { client, line, device } = facts;
  const vars = commonVars(business, client.full_name);
  const end = line.expires_at ? ` It runs until ${formatDate(line.expires_at)}.` : "";
  const how =
    device.type === "mag"
      ? [`On the box: Settings > Servers > Portals. Set Portal 1 URL to ${magPortalUrl(facts.streamUrl)} then save and restart the box.`]
      : [
          `Your receiver connects to ${facts.streamUrl.replace(/\/+$/, "")}. Reply to this message if you need help loading the channel list.`,
        ];
  const body = [
    `Hi ${vars.name},`,
    "",
    `Your ${vars.business} line is ready for your ${device.type === "mag" ? "MAG box" : "Enigma2 receiver"} with MAC address ${device.mac}.${end}`,
    ...(facts.test ? ["NOTE: this is a TEST line from the shop's sandbox panel; it does not play real channels."] : []),
    "",
    ...how,
    "",
    `Your account: ${vars.portal_link}`,
    "",
    vars.sign_off,
  ].join("\n");
  return channelsFor(client, { alsoEmail: true }).map((target) => ({
    ...target,
    subject: target.channel === "email" ? `${vars.business}: your line is ready` : undefined,
    body,
    kind: "credentials",
    client_id: client.id,
    dedupe_key: `credentials:${facts.jobId}:${target.channel}`,
  }));
}

export function credentialsMessages(business: BusinessProfile, facts: CredentialsFacts, templates: OwnerTemplates): OutboxMessage[] {
  const { client, line } = facts;
  const message = renderMessage(templates, "credentials", credentialsVars(business, facts));
  return channelsFor(client, { alsoEmail: true }).map((target) => ({
    ...target,
    // the kind's own subject on a WhatsApp row too (the owner's queue and an e-mail copy read it)
    subject: message.subject,
    body: message.body,
    kind: "credentials",
    client_id: client.id,
    secret: line.password,
    failure: message.error,
    dedupe_key: `credentials:${facts.jobId}:${target.channel}`,
  }));
}
