// The owner's alerts (docs/architecture.md, "Owner alerts"): what goes wrong or waits for them —
// a panel job failed, panel credits fell below the warning, a new EFT order to confirm, a
// message that could not be sent — and the daily digest (jobs/owner-digest.ts), queued in the
// outbox in the same transaction as their cause, each once per cause (its dedupe key).
//
// Where an alert goes (the settings in shared/owner-alerts.ts):
// - the alerts e-mail (`alertsEmail`): the owner's own address when set, else the first admin's,
//   where every notice for the owner goes (payments received, orders, the credit runway too);
// - and the alert WhatsApp number, when set and the WhatsApp Cloud API is configured (outside the
//   number's 24-hour window it needs an approved template for kind 'owner-alert', {{body}}).
// Never the support e-mail (branding): that is the shop's public address, often still the demo
// seed's, on a domain the owner may not own, and these carry clients' names and numbers.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "@/server/db/client";
import { admins, siteSettings } from "@/server/db/schema";
import { messageKindLabel } from "@/shared/messaging";
import { formatRand } from "@/shared/money";
import {
  OWNER_ALERT_CAUSES,
  OWNER_ALERT_KIND,
  OWNER_ALERT_SETTINGS,
  type OwnerAlertCause,
  type OwnerAlertPrefs,
  ownerAlertPrefs,
} from "@/shared/owner-alerts";
import { formatPhoneForDisplay } from "@/shared/whatsapp";
import { type Channel, enqueue } from "./outbox";

/** Any drizzle handle: the database or a transaction. */
type Executor = Pick<Db, "insert" | "select">;

export interface OwnerAlert {
  /** which switch turns it off; 'digest' is the daily digest, which has its own */
  cause: OwnerAlertCause | "digest";
  /** the cause's key: the e-mail row takes it as it is, the WhatsApp row with ':whatsapp' added */
  dedupeKey: string;
  subject: string;
  body: string;
  /** the WhatsApp row's words, where they differ (a WhatsApp text never says "e-mail"); else subject and body */
  whatsapp?: { subject: string; body: string };
}

export interface AlertRoute {
  prefs: OwnerAlertPrefs;
  /** the alerts e-mail: the owner's alert address, else the first admin's ('' when there is neither) */
  email: string;
  /** whether WhatsApp goes through the Cloud API (else the owner would have to send it to themselves) */
  cloudApi: boolean;
}

/** The earliest admin's own address: the owner who set the shop up ('' before there is one). */
export async function firstAdminEmail(db: Pick<Db, "select">): Promise<string> {
  const [first] = await db.select({ email: admins.email }).from(admins).orderBy(asc(admins.created_at), asc(admins.id)).limit(1);
  return first?.email ?? "";
}

/**
 * The alerts e-mail: where every notice and alert for the owner goes — the alert address they set
 * (secret_owner_alert_email), else the first admin's own address. Read from the database (not the
 * cache): an admin's address is not on the change feed, and the caller is about to send.
 */
export async function alertsEmail(db: Pick<Db, "select">): Promise<string> {
  return (await loadAlertRoute(db, false)).email;
}

/** The owner's alert settings and the alerts e-mail, read from the database (not the cache: a job decides on them). */
export async function loadAlertRoute(db: Pick<Db, "select">, cloudApi: boolean): Promise<AlertRoute> {
  const keys = [...Object.values(OWNER_ALERT_SETTINGS), ...Object.values(OWNER_ALERT_CAUSES).map((c) => c.setting)];
  const [settings, admin] = await Promise.all([
    db
      .select({ key: siteSettings.key, value: siteSettings.value })
      .from(siteSettings)
      .where(and(inArray(siteSettings.key, keys), eq(siteSettings.is_active, true))),
    firstAdminEmail(db),
  ]);
  const prefs = ownerAlertPrefs(Object.fromEntries(settings.map((s) => [s.key, s.value])));
  return { prefs, email: prefs.email || admin, cloudApi };
}

/** Where the owner's alerts go now (see the top of this file); empty when nowhere. */
export function alertRecipients(route: AlertRoute): { channel: Channel; recipient: string }[] {
  const to: { channel: Channel; recipient: string }[] = [];
  if (route.email) to.push({ channel: "email", recipient: route.email });
  if (route.prefs.whatsapp && route.cloudApi) to.push({ channel: "whatsapp", recipient: route.prefs.whatsapp });
  return to;
}

/**
 * Queue an alert to the owner, in the caller's transaction: one row per channel, each once
 * (its dedupe key), nothing when its switch is off. Returns how many rows it asked for (a
 * replay's are dropped by their keys), so the caller knows whether to nudge the outbox.
 */
export async function queueOwnerAlert(executor: Executor, route: AlertRoute, alert: OwnerAlert): Promise<number> {
  const on = alert.cause === "digest" ? route.prefs.digest : route.prefs.on[alert.cause];
  if (!on) return 0;
  const to = alertRecipients(route);
  for (const { channel, recipient } of to) {
    const words = channel === "whatsapp" && alert.whatsapp ? alert.whatsapp : alert;
    await enqueue(executor, {
      channel,
      recipient,
      subject: words.subject,
      body: words.body,
      kind: OWNER_ALERT_KIND,
      dedupe_key: channel === "email" ? alert.dedupeKey : `${alert.dedupeKey}:whatsapp`,
    });
  }
  return to.length;
}

/** queueOwnerAlert for a caller with the app: the route read now, with this process's Cloud API. */
export async function alertOwner(app: FastifyInstance, executor: Executor, alert: OwnerAlert): Promise<number> {
  return queueOwnerAlert(executor, await loadAlertRoute(executor, app.outbox.cloudApi), alert);
}

// ---- the texts ----------------------------------------------------------------------------------

/**
 * How the alert names the failed message's channel, by the channel the alert itself goes on: the
 * real one always, and on WhatsApp never the word "e-mail": there a failed e-mail is a "message" to
 * the e-mail address, which names its channel.
 */
const FAILED_CHANNEL_WORDS: Record<Channel, Record<Channel, string>> = {
  whatsapp: { email: "WhatsApp message", whatsapp: "WhatsApp message" },
  email: { email: "e-mail", whatsapp: "message" },
};

/** The words a WhatsApp text uses for what an e-mail-speaking one calls "e-mail" (an error's own words included). */
const withoutEmailWord = (text: string) => text.replace(/\b(e-?mail)(s?)\b/gi, (_, _word, plural: string) => `mail${plural}`);

/**
 * A message given up on: the outbox worker's last try, or WhatsApp reporting it undeliverable
 * (the Cloud API's 'failed' status). Once per outbox row, whichever says so first. Worded per
 * channel the alert goes on (`whatsapp`): each names the failed message's real channel.
 */
export function outboxFailedAlert(
  publicUrl: string,
  row: { id: string; kind: string; channel: string; recipient: string; attempts: number },
  person: string,
  error: string,
): OwnerAlert {
  const failedChannel: Channel = row.channel === "whatsapp" ? "whatsapp" : "email";
  const to = failedChannel === "whatsapp" ? `WhatsApp ${formatPhoneForDisplay(row.recipient)}` : row.recipient;
  const link = `${publicUrl}/admin/outbox?status=failed`;
  const words = (alertChannel: Channel) => {
    const what = `${messageKindLabel(row.kind || "message")} ${FAILED_CHANNEL_WORDS[failedChannel][alertChannel]}`;
    const reason = alertChannel === "whatsapp" ? withoutEmailWord(error) : error;
    return {
      subject: `Not sent: ${what} to ${person || to}`,
      body: [
        `The ${what} to ${person ? `${person} (${to})` : to} could not be sent${row.attempts > 1 ? ` after ${row.attempts} tries` : ""}, and will not be tried again by itself.`,
        `The reason: ${reason}`,
        "",
        `Fix the cause, then retry it (or send it another way) here: ${link}`,
      ].join("\n"),
    };
  };
  return { cause: "outbox-failed", dedupeKey: `owner-alert:outbox-failed:${row.id}`, ...words("email"), whatsapp: words("whatsapp") };
}

/** A new EFT order: who, what, the reference, and where to confirm it. Once per payment. */
export function eftOrderAlert(
  publicUrl: string,
  order: { paymentId: string; reference: string; amount: number; packageName: string; name: string; whatsapp: string; email: string },
): OwnerAlert {
  const contact = [order.whatsapp ? `WhatsApp ${formatPhoneForDisplay(order.whatsapp)}` : "", order.email ? order.email : ""]
    .filter(Boolean)
    .join(", ");
  const amount = formatRand(order.amount);
  return {
    cause: "eft-order",
    dedupeKey: `owner-alert:eft-order:${order.paymentId}`,
    subject: `New EFT order: ${amount} for ${order.packageName} from ${order.name} (${order.reference})`,
    body: [
      `${order.name}${contact ? ` (${contact})` : ""} asked to pay ${amount} by EFT for ${order.packageName} and was given the bank details with reference ${order.reference}.`,
      "",
      `Nothing is added to their account until you confirm the money. When ${amount} with reference ${order.reference} shows in your bank account, mark it paid here (that adds their subscription and sends their receipt):`,
      `${publicUrl}/admin/payments?status=pending&provider=eft&q=${encodeURIComponent(order.reference)}`,
    ].join("\n"),
  };
}

/**
 * A provider reported a payment for another amount than we priced: not captured, nothing set up
 * for the customer. What was reported, what we priced, where to look. Once per payment.
 */
export function paymentMismatchAlert(
  publicUrl: string,
  payment: { id: string; reference: string; packageName: string; provider: string; reportedCents: number; pricedCents: number },
): OwnerAlert {
  const reported = formatRand(payment.reportedCents / 100);
  const priced = formatRand(payment.pricedCents / 100);
  return {
    cause: "payment-mismatch",
    dedupeKey: `owner-alert:payment-mismatch:${payment.id}`,
    subject: `Payment ${payment.reference} not captured: ${payment.provider} reported ${reported}, we priced ${priced}`,
    body: [
      `${payment.provider} reported ${reported} for payment ${payment.reference} (${payment.packageName}); we priced it at ${priced}.`,
      "",
      `It was not captured, so nothing was set up for the customer. Check the payment at ${payment.provider}, then mark it paid or refund it here:`,
      `${publicUrl}/admin/payments?q=${encodeURIComponent(payment.reference)}`,
    ].join("\n"),
  };
}

/** Panel credits below the warning: how many are left, what fails at none, where to look. Once per crossing. */
export function lowCreditsAlert(publicUrl: string, credits: number, warning: number, crossing: number): OwnerAlert {
  const left = `${credits} credit${credits === 1 ? "" : "s"}`;
  return {
    cause: "low-credits",
    dedupeKey: `owner-alert:low-credits:${crossing}`,
    subject: `Panel credits low: ${left} left (your warning is below ${warning})`,
    body: [
      `Your IPTV panel has ${left} left, below your warning of ${warning}.`,
      "Each new line and renewal spends credits; at none, the panel refuses them and paid customers wait for their line until you top up and retry.",
      "",
      `Top up with your panel provider, then check the balance here: ${publicUrl}/admin/panel`,
      `You hear of this once, until the balance is back at ${warning} or more.`,
    ].join("\n"),
  };
}

// ---- panel credits: once per crossing -------------------------------------------------------------

export const CREDIT_WARNING_SETTING = "panel_credit_warning";
export const CREDIT_WARNING_DEFAULT = 10;
/** Whether the balance was last seen below the warning, and how many times it has fallen below: 'low:3', 'ok:3'. */
const CREDIT_STATE_SETTING = "private_owner_alert_credits";

/** The credit warning the settings hold (panel_credit_warning), else the default. */
export function creditWarning(settings: Record<string, string | null | undefined>): number {
  const value = Number(settings[CREDIT_WARNING_SETTING] ?? CREDIT_WARNING_DEFAULT);
  return Number.isFinite(value) && value >= 0 ? value : CREDIT_WARNING_DEFAULT;
}

/**
 * A credit balance just read from the panel (the dashboard's panel view, a line just made or
 * renewed). Falling below the warning alerts the owner once; climbing back to it re-arms the
 * alert. The last state is a private setting, changed under its row lock, so two processes
 * reading the same balance alert once. Returns whether an alert was queued.
 */
export async function noteCreditBalance(app: FastifyInstance, credits: number | null, publicUrl: string): Promise<boolean> {
  if (credits === null) return false;
  const queued = await app.db.transaction(async (tx) => {
    const route = await loadAlertRoute(tx, app.outbox.cloudApi);
    const [warningRow] = await tx
      .select({ value: siteSettings.value })
      .from(siteSettings)
      .where(eq(siteSettings.key, CREDIT_WARNING_SETTING));
    const warning = creditWarning({ [CREDIT_WARNING_SETTING]: warningRow?.value });
    const low = credits < warning;
    await tx
      .insert(siteSettings)
      .values({
        key: CREDIT_STATE_SETTING,
        value: "ok:0",
        is_active: false,
        description: "Owner alerts: the panel credit balance's last side of the warning",
      })
      .onConflictDoNothing({ target: siteSettings.key });
    const [state] = await tx.select().from(siteSettings).where(eq(siteSettings.key, CREDIT_STATE_SETTING)).for("update");
    const [mark, count] = (state?.value ?? "ok:0").split(":");
    const crossings = Number.parseInt(count ?? "0", 10) || 0;
    if (low === (mark === "low")) return 0;
    const crossing = low ? crossings + 1 : crossings;
    await tx
      .update(siteSettings)
      .set({ value: `${low ? "low" : "ok"}:${crossing}`, updated_at: new Date() })
      .where(eq(siteSettings.key, CREDIT_STATE_SETTING));
    return low ? queueOwnerAlert(tx, route, lowCreditsAlert(publicUrl, credits, warning, crossing)) : 0;
  });
  if (queued) app.outbox.nudge();
  return queued > 0;
}
