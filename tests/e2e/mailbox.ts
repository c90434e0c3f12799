// The customers' mailbox of the browser suite: every e-mail the server sends goes to the SMTP
// sink start-server.mjs runs (src/server/test-support/smtp-sink.ts), whose HTTP port
// (E2E_MAIL_PORT, set by playwright.config.ts) answers what arrived, by recipient.
import { expect } from "@playwright/test";

export interface Mail {
  to: string[];
  subject: string;
  text: string;
  attachments: string[];
  received_at: string;
}

/** What has arrived for `address` so far, oldest first. */
export async function mailsTo(address: string): Promise<Mail[]> {
  const port = process.env.E2E_MAIL_PORT;
  if (!port) throw new Error("E2E_MAIL_PORT is not set: run the specs with tests/e2e/playwright.config.ts");
  const res = await fetch(`http://127.0.0.1:${port}/mails?to=${encodeURIComponent(address)}`);
  expect(res.ok).toBe(true);
  return ((await res.json()) as { data: Mail[] }).data;
}

/** Waits for a mail to `address` that `match` accepts, and answers it. */
export async function mailTo(address: string, match: (mail: Mail) => boolean, timeout = 20_000): Promise<Mail> {
  let found: Mail | undefined;
  await expect(async () => {
    found = (await mailsTo(address)).find(match);
    expect(found, `no mail to ${address} like that yet`).toBeTruthy();
  }).toPass({ timeout });
  return found as Mail;
}

/**
 * The newest one-time code mailed to `address`: on this server (no WhatsApp Cloud API) a code goes
 * only where it arrives, the person's e-mail, never to the owner's queue (lib/verification.ts).
 */
export async function codeMailedTo(address: string): Promise<string> {
  const mail = await mailTo(address.toLowerCase(), (m) => /code is \d{6}/.test(m.text));
  return /code is (\d{6})/.exec(mail.text)?.[1] as string;
}
