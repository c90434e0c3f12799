// A free trial asked for again with a number or mailbox that already had one (issue 46: who has
// been here is not public). The refusal used to be a 409 naming the number or the address, which
// told anyone that the person had been a customer here, or tried to be. Now the request is
// answered like any trial request (orders/service.ts): saved as a lead of its own kind, its trial
// made with a code that goes nowhere (openTrial, `unsent`) and never starts (verifyTrial), and the
// person it belongs to is told privately, on the contacts of their earlier trial, that they have
// had theirs — at most once a day, so a stranger asking again and again cannot flood them.
import { and, desc, eq, or } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { leads } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { enqueue } from "@/server/lib/outbox";
import { isValidEmail, mailboxKey } from "@/shared/contact";
import { formatDate, saDay } from "@/shared/dates";
import { toStoredWhatsApp } from "@/shared/whatsapp";
import { recordRefusal } from "./limits";
import { networkOf } from "./network";

type Lead = typeof leads.$inferSelect;

/** The lead kind of a free trial asked for again (LEAD_FORM_TYPES); the one-trial indexes leave it out. */
export const TRIAL_AGAIN_FORM = "trial-again";
export const TRIAL_AGAIN_KIND = "trial-again";

/** A trial lead that can never start: a client's number (they have an account) or a trial asked for again. */
export const trialNeverStarts = (lead: Pick<Lead, "client_id" | "form_type">): boolean =>
  Boolean(lead.client_id) || lead.form_type === TRIAL_AGAIN_FORM;

/**
 * The free trial this number or mailbox already had, if any: the one-trial indexes' comparison
 * (the number's digits; the mailbox, so a.b+1@gmail.com is ab@gmail.com).
 */
export async function earlierTrial(app: FastifyInstance, person: { whatsapp_digits?: string | null; email?: string | null }) {
  const digits = person.whatsapp_digits ?? "";
  const mailbox = mailboxKey(person.email ?? "");
  const [row] = await app.db
    .select()
    .from(leads)
    .where(
      and(
        eq(leads.form_type, "free-trial"),
        or(digits ? eq(leads.whatsapp_digits, digits) : undefined, mailbox ? eq(leads.email_key, mailbox) : undefined),
      ),
    )
    .orderBy(desc(leads.created_at))
    .limit(1);
  return row ?? null;
}

/**
 * A trial asked for again was answered like any (no refusal said whose number it is): counted for
 * the owner, and the person whose earlier trial it was is told on that trial's contacts — e-mail
 * when it gave a valid address, else WhatsApp — once a day. Not for a client's number asked for
 * instantly: openTrial counts that as a returning client and tells them about their account.
 */
export async function noteTrialAgain(app: FastifyInstance, again: Lead, ip: string, instant: boolean): Promise<void> {
  if (again.client_id && instant) return;
  await recordRefusal(app, "already-had-trial", networkOf(ip));
  const earlier = await earlierTrial(app, again);
  if (!earlier) return;
  const email = earlier.email.trim();
  const number = toStoredWhatsApp(earlier.whatsapp);
  const to = isValidEmail(email)
    ? ({ channel: "email", recipient: email } as const)
    : number
      ? ({ channel: "whatsapp", recipient: number } as const)
      : null;
  if (!to) return;
  const business = await loadBusiness(app);
  const first = earlier.name.trim().split(/\s+/)[0];
  const byNumber = number && earlier.whatsapp_digits === again.whatsapp_digits;
  const what = byNumber ? `your WhatsApp number ending ${number.slice(-4)}` : "your e-mail address";
  await enqueue(app.db, {
    channel: to.channel,
    recipient: to.recipient,
    subject: to.channel === "email" ? `Your free trial with ${business.companyName}` : undefined,
    body: [
      first ? `Hi ${first},` : "Hi,",
      "",
      `Someone asked ${business.companyName} for a free trial with ${what}. Each number and e-mail address gets one free trial, and yours was on ${formatDate(earlier.created_at)}, so no new trial was started and no code was sent.`,
      `To keep watching, choose a package: ${business.publicUrl}/pricing`,
      "",
      "If it was not you, there is nothing to do.",
    ].join("\n"),
    kind: TRIAL_AGAIN_KIND,
    lead_id: earlier.id,
    client_id: earlier.client_id,
    dedupe_key: `${TRIAL_AGAIN_KIND}:${earlier.id}:${saDay(new Date())}`,
  });
  app.outbox.nudge();
}
