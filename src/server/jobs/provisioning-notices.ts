// What the provisioning worker tells people: the customer whose box's MAC is taken, and the owner
// about a job that failed.
import type { loadBusiness } from "@/server/lib/business";
import { preferredContact } from "@/server/lib/contact";
import { commonVars } from "@/server/lib/message-templates";
import { enqueue } from "@/server/lib/outbox";
import type { OwnerAlert } from "@/server/lib/owner-alerts";

import type { Client, Job } from "./provisioning-job";

/**
 * The customer's message when their box's MAC is already on the panel: check the label and send
 * the right one. Once per job (dedupe mac-taken:<job id>), on their own channel.
 */
export async function enqueueMacTaken(
  tx: Parameters<typeof enqueue>[0],
  business: Awaited<ReturnType<typeof loadBusiness>>,
  job: Job,
  client: Client,
): Promise<boolean> {
  const contact = preferredContact(client);
  if (!contact) return false;
  const vars = commonVars(business, client.full_name);
  const box = client.line_type === "enigma2" ? "Enigma2 receiver" : "MAG box";
  await enqueue(tx, {
    ...contact,
    subject: contact.channel === "email" ? `${vars.business}: please check your box's MAC address` : undefined,
    body: [
      `Hi ${vars.name},`,
      "",
      `The MAC address you gave for your ${box}, ${client.line_mac}, is already registered on our server, so we could not set up your line yet. Your payment is safe.`,
      "Please check the MAC address on the label of your box and reply with it: we set up your line as soon as we have it.",
      "",
      vars.sign_off,
    ].join("\n"),
    kind: "mac-taken",
    client_id: client.id,
    dedupe_key: `mac-taken:${job.id}`,
  });
  return true;
}

const ACTION_WORDS: Record<string, string> = {
  create_line: "create the line",
  extend_line: "renew the line",
  enable_line: "switch the line back on",
  disable_line: "switch the line off",
  change_mac: "move the box's line to its new MAC address",
  isp_clear: "reset the line's ISP lock",
};

/**
 * The owner's alert about a job that failed: what the panel was asked, its own words, and
 * where to retry. Once per job (dedupe key panel-failed:<job id>).
 */
export function failureNotice(
  publicUrl: string,
  job: Pick<Job, "id" | "action" | "trial" | "package_name">,
  client: Pick<Client, "full_name" | "username">,
  failure: { message: string; status: string },
): OwnerAlert {
  const what = ACTION_WORDS[job.action] ?? job.action;
  const line = job.trial ? "free-trial line" : `${job.package_name || "paid"} line`;
  // A job the server stopped in the middle of: the panel said nothing, and it may have done it.
  const interrupted = failure.status === "INTERRUPTED";
  return {
    cause: "panel-failed",
    subject: interrupted
      ? `Panel job interrupted: check whether the panel did ${what} for ${client.full_name}`
      : `Panel job failed: could not ${what} for ${client.full_name}`,
    body: [
      interrupted
        ? `The server stopped while asking the panel to ${what} (${line}) for ${client.full_name} (${client.username}): it may or may not have happened.`
        : `The panel could not ${what} (${line}) for ${client.full_name} (${client.username}).`,
      "",
      interrupted
        ? `Check the panel for ${client.username}'s line.`
        : `The panel said: ${failure.message}${failure.status ? ` (${failure.status})` : ""}`,
      "",
      `Nothing more happens until you act: fix the cause, then retry the job (or mark it done) here: ${publicUrl}/admin/panel`,
      ...(job.action === "create_line" ? ["The customer has not been told: their login goes to them when the line is made."] : []),
    ].join("\n"),
    dedupeKey: `panel-failed:${job.id}`,
  };
}
