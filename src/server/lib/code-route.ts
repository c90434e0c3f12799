// Where a one-time code can go now (lib/verification.ts makes and checks the codes): a WhatsApp
// number the Cloud API reaches (the authentication template, or free text in the open window),
// an e-mail address while mail leaves the server; and the shop-wide daily cap on WhatsApp codes.
import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { outbox, siteSettings, whatsappTemplates, whatsappWindows } from "@/server/db/schema";
import { WHATSAPP_CODE_CAP_SETTING, whatsappCodeCap } from "@/shared/code-limits";
import { saDay } from "@/shared/dates";
import { WHATSAPP_WINDOW_HOURS } from "@/shared/messaging";
import { AppError } from "./errors";
import { loadAlertRoute, type OwnerAlert, queueOwnerAlert } from "./owner-alerts";
import type { Destination } from "./verification";

/** free text is counted on only this far inside the window (the outbox worker's margin too) */
/** The outbox kind of a code message: the worker never sends it as free text or copies it by e-mail. */
export const VERIFICATION_KIND = "verification-code";

export const CODE_WINDOW_MARGIN_MINUTES = 5;

/** How a code reaches a WhatsApp number now: the authentication template, free text in the open window, or not at all. */
export type WhatsAppCodeWay = "template" | "window" | null;

export async function whatsappCodeWay(
  db: Pick<Db, "select">,
  number: string,
  options: { cloudApi: boolean; now?: Date; windows?: boolean },
): Promise<WhatsAppCodeWay> {
  if (!options.cloudApi) return null;
  const now = options.now ?? new Date();
  const [template] = await db
    .select({ enabled: whatsappTemplates.enabled })
    .from(whatsappTemplates)
    .where(eq(whatsappTemplates.kind, VERIFICATION_KIND));
  if (template?.enabled) return "template";
  if (options.windows === false) return null;
  const openSince = new Date(now.getTime() - (WHATSAPP_WINDOW_HOURS * 60 - CODE_WINDOW_MARGIN_MINUTES) * 60_000);
  const [window] = await db
    .select({ number: whatsappWindows.number })
    .from(whatsappWindows)
    .where(and(eq(whatsappWindows.number, number.replace(/\D/g, "")), gt(whatsappWindows.last_inbound_at, openSince)));
  return window ? "window" : null;
}

/**
 * Where a code can go now, of `candidates` (the person's contacts on this path, in the order
 * preferred): each WhatsApp number the Cloud API can reach (whatsappCodeWay), each e-mail
 * address while e-mail leaves the server (SMTP_URL: without it a mailed code would only wait in
 * the outbox, which is the owner's queue by another name). A number reached only by the paid
 * authentication template is left out once the shop's WhatsApp codes of the day have reached
 * whatsapp_code_daily_cap (the owner is alerted, once that day). Empty when none: the caller
 * refuses in noCodeRoute's words and issues nothing. `windows: false` leaves open windows out:
 * the route then follows the shop's state alone, the same for any number (identify's answer).
 */
export async function codeRoute(
  db: Pick<Db, "select" | "insert">,
  candidates: Destination[],
  options: { cloudApi: boolean; email: boolean; now?: Date; windows?: boolean },
): Promise<Destination[]> {
  const usable: Destination[] = [];
  for (const to of candidates) {
    if (to.channel === "email") {
      if (options.email && to.recipient.includes("@")) usable.push(to);
      continue;
    }
    const way = await whatsappCodeWay(db, to.recipient, options);
    if (way === "template" && (await whatsappCodesCapped(db, options))) continue;
    if (way) usable.push(to);
  }
  return usable;
}

/** The start of the South African day `now` is in. */
function saDayStart(now: Date): Date {
  return new Date(`${saDay(now)}T00:00:00+02:00`);
}

/**
 * Whether the shop's WhatsApp code messages queued since the start of today (SAST) have reached
 * the daily cap; when they have, the owner is alerted (once a day: the alert's dedupe key is the day).
 */
export async function whatsappCodesCapped(db: Pick<Db, "select" | "insert">, options: { cloudApi: boolean; now?: Date }): Promise<boolean> {
  const now = options.now ?? new Date();
  const [setting] = await db
    .select({ value: siteSettings.value })
    .from(siteSettings)
    .where(and(eq(siteSettings.key, WHATSAPP_CODE_CAP_SETTING), eq(siteSettings.is_active, true)));
  const cap = whatsappCodeCap(setting?.value);
  const [sent] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(outbox)
    .where(and(eq(outbox.kind, VERIFICATION_KIND), eq(outbox.channel, "whatsapp"), gt(outbox.created_at, saDayStart(now))));
  if (sent.n < cap) return false;
  await queueOwnerAlert(db, await loadAlertRoute(db, options.cloudApi), codeCapAlert(saDay(now), cap));
  return true;
}

/** The owner's alert when the day's WhatsApp codes reached the cap. Once per day. */
export function codeCapAlert(day: string, cap: number): OwnerAlert {
  return {
    cause: "code-cap",
    dedupeKey: `owner-alert:code-cap:${day}`,
    subject: `WhatsApp codes capped for today: ${cap} sent`,
    body: [
      `Today (${day}) the shop has sent ${cap} one-time codes on WhatsApp, your daily cap. Each costs an authentication message.`,
      "Until midnight, codes go by e-mail only, to people who have an address; the others can prove themselves by writing to you on WhatsApp, sign in, or go on as a new customer.",
      "",
      "Many codes in one day can mean someone is asking for codes for other people's numbers. To change the cap: Dashboard › Settings, “WhatsApp code messages a day (cap)”.",
    ].join("\n"),
  };
}

/** The 409 when no code can be delivered, on the field that decides it (CODE_ROUTE_MESSAGES' words): nothing was issued. */
export function noCodeRoute(message: string, field: string): AppError {
  return new AppError(409, "no_code_route", message, { [field]: message });
}
