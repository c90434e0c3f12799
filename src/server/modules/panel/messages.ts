// The subscriber's line credentials, sent the moment a line is made: the player login (server,
// username, password), the M3U playlist and EPG links, their client portal, and the setup
// guide for their device. Short, plain text, ending with the sign-off (docs/architecture.md,
// "House style").

import type { PanelLine } from "@/server/adapters/panel/panel";
import { subscriberUrls } from "@/server/adapters/panel/panel";
import { type BusinessProfile, signOff } from "@/server/lib/business";
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

export function credentialsMessages(business: BusinessProfile, facts: CredentialsFacts): OutboxMessage[] {
  const { client, line, app } = facts;
  // The password is the line itself: stored encrypted, put into the text (and, URL-encoded,
  // into the M3U and EPG links) only as the message is sent.
  const urls = subscriberUrls(facts.streamUrl, { username: line.username, password: "PASSWORD" });
  const withSecret = (url: string) => url.replace("password=PASSWORD", `password=${SECRET_URL_PLACEHOLDER}`);
  const first = client.full_name.trim().split(/\s+/)[0] || "there";
  const device = DEVICE_LABELS[client.device as keyof typeof DEVICE_LABELS] ?? "";
  const guide: string[] = [];
  if (app) {
    guide.push(`Set up ${app.name}${device ? ` on your ${device}` : ""}:`);
    if (app.installation_guide?.trim()) guide.push(numberedSteps(app.installation_guide));
    guide.push("");
  }
  const body = [
    `Hi ${first},`,
    "",
    facts.test
      ? `Your ${business.companyName} line is ready. NOTE: this is a TEST line from the shop's sandbox panel; it does not play real channels.`
      : `Your ${business.companyName} line is ready. Here is how to sign in to your player app:`,
    "",
    `Server URL: ${urls.server_url}`,
    `Username: ${line.username}`,
    `Password: ${SECRET_PLACEHOLDER}`,
    line.expires_at ? `Active until: ${formatDate(line.expires_at)}` : "",
    "",
    `M3U playlist (for apps that ask for a link): ${withSecret(urls.m3u_url)}`,
    `TV guide (EPG): ${withSecret(urls.epg_url)}`,
    "",
    ...guide,
    `These details are also in your client portal (username ${client.username}), with a QR code for TV apps: ${business.publicUrl}/client`,
    "",
    signOff(business),
  ]
    .filter((line, i, all) => line !== "" || all[i - 1] !== "")
    .join("\n");
  return channelsFor(client, { alsoEmail: true }).map((target) => ({
    ...target,
    subject: target.channel === "email" ? `${business.companyName}: your line is ready` : undefined,
    body,
    kind: "credentials",
    client_id: client.id,
    secret: line.password,
    dedupe_key: `credentials:${facts.jobId}:${target.channel}`,
  }));
}
