// Player-app downloads: counting a download and sending an app's installation guide. The
// guide, version, size and link always come from the database, never from the request, so
// the form cannot be used to mail text of the caller's choosing.
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { downloads } from "@/server/db/schema";
import { type BusinessProfile, loadBusiness, signOff } from "@/server/lib/business";
import { AppError, notFound } from "@/server/lib/errors";
import { enqueue } from "@/server/lib/outbox";
import { normaliseWhatsAppNumber } from "@/shared/whatsapp";

export const APP_NOT_FOUND = "App not found";
export const NO_DOWNLOAD_URL = "Download URL not available";
export const NO_INSTRUCTIONS = "Installation guide not available for this app";

/**
 * Only web links and paths on our own site are handed to the browser: the page navigates to
 * this URL, and a `javascript:` or `data:` value typed into the admin must never run there.
 */
const SAFE_URL_SQL = sql`${downloads.download_url} ~* '^(https?://|/)'`;

/** Count one download and return its URL, in one statement, so concurrent clicks all count. */
export async function countDownload(app: FastifyInstance, id: string): Promise<string> {
  const [counted] = await app.db
    .update(downloads)
    .set({ download_count: sql`${downloads.download_count} + 1` })
    .where(and(eq(downloads.id, id), eq(downloads.is_active, true), SAFE_URL_SQL))
    .returning({ url: downloads.download_url });
  if (counted?.url) return counted.url;
  // Nothing counted: say why (unknown or hidden app, or no usable link).
  const [found] = await app.db
    .select({ id: downloads.id })
    .from(downloads)
    .where(and(eq(downloads.id, id), eq(downloads.is_active, true)));
  if (!found) throw notFound(APP_NOT_FOUND);
  throw new AppError(404, "no_download_url", NO_DOWNLOAD_URL);
}

export interface InstructionsTarget {
  type: "whatsapp" | "email";
  /** the contact as validated: an e-mail address or a phone number in any common form */
  contact: string;
}

/** Where a message goes, in the outbox's form: WhatsApp numbers as 27…, e-mail lower-cased. */
export function recipientOf(target: InstructionsTarget): string {
  return target.type === "whatsapp" ? normaliseWhatsAppNumber(target.contact) : target.contact.trim().toLowerCase();
}

type App = typeof downloads.$inferSelect;

/** The active app with a guide to send, or the spec's error. */
export async function findGuide(app: FastifyInstance, id: string): Promise<App> {
  const [row] = await app.db
    .select()
    .from(downloads)
    .where(and(eq(downloads.id, id), eq(downloads.is_active, true)));
  if (!row) throw notFound(APP_NOT_FOUND);
  if (!row.installation_guide?.trim()) throw new AppError(404, "no_instructions", NO_INSTRUCTIONS);
  return row;
}

/** Queue the guide on the chosen channel. The outbox worker sends it (or it waits for the admin). */
export async function queueInstructions(app: FastifyInstance, row: App, target: InstructionsTarget): Promise<void> {
  const business = await loadBusiness(app);
  await enqueue(app.db, {
    channel: target.type,
    recipient: recipientOf(target),
    subject: target.type === "email" ? `${row.name} installation guide` : undefined,
    body: instructionsText(row, business),
    kind: "instructions",
  });
  app.outbox.nudge();
}

/** The message: what it is, the facts of the app, the link, the numbered steps, and who to ask. */
export function instructionsText(row: App, business: BusinessProfile): string {
  const facts = [row.version ? `version ${row.version}` : "", row.file_size].filter(Boolean).join(", ");
  const link = absoluteLink(row.download_url, business.publicUrl);
  return [
    `Hi, here is how to install ${row.name}${facts ? ` (${facts})` : ""}, as requested on the ${business.companyName} website.`,
    link ? `Download: ${link}` : `Find it on our Downloads page: ${business.publicUrl}/downloads`,
    numberedSteps(row.installation_guide ?? ""),
    "Once it is installed, sign in with the login details we sent you. Stuck on a step? Message us and we will help you finish.",
    signOff(business),
  ].join("\n\n");
}

/** A usable link to the app: web links as they are, site paths under our public address. */
function absoluteLink(url: string | null, publicUrl: string): string | null {
  if (!url) return null;
  if (/^https?:\/\//i.test(url)) return url;
  if (url.startsWith("/") && !url.startsWith("//")) return `${publicUrl}${url}`;
  return null;
}

const NUMBERED = /^\d+[.)]\s/;

/**
 * The guide as numbered steps. A guide the admin already numbered is kept as written (it may
 * hold sub-points); otherwise each non-empty line becomes a step.
 */
export function numberedSteps(guide: string): string {
  const lines = guide
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.some((line) => NUMBERED.test(line))) return lines.join("\n");
  return lines.map((line, i) => `${i + 1}. ${line}`).join("\n");
}
