// Accounts, shared by payments and the admin's lead conversion: making a client account from a
// lead (inside the caller's transaction) with a portal login sent on their channel. A new
// account is always 'pending': its term comes from the lifecycle module. Who a person already
// is, is lib/identity.ts's to say.
import { createHash, randomBytes, randomInt } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { generatePassword, hashPassword } from "@/server/auth/passwords";
import type { Db } from "@/server/db/client";
import { clients, downloads, type leads, passwordResetTokens } from "@/server/db/schema";
import { deviceOfLead } from "@/shared/device-line-schemas";
import type { BusinessProfile } from "./business";
import { uniqueViolation } from "./errors";
import { clientByNumber, storedNumber } from "./identity";
import { baseUsername, nextFreeUsername } from "./usernames";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Executor = Db | Tx;
export type ClientRow = typeof clients.$inferSelect;
export type LeadRow = typeof leads.$inferSelect;

/** A set-your-password link sent with an account made without an admin works this long. */
export const SET_PASSWORD_LINK_DAYS = 7;
const USERNAME_ATTEMPTS = 5;

/** Their chosen channel, unless it has no address and the other one does. */
function channelFor(lead: Pick<LeadRow, "communication_method">, email: string, whatsapp: string): "email" | "whatsapp" {
  if (lead.communication_method === "email") return email || !whatsapp ? "email" : "whatsapp";
  return whatsapp || !email ? "whatsapp" : "email";
}

/**
 * Inserts a pending client made from the lead, under a free username derived from their name,
 * inside `tx` (a taken username is retried in a savepoint). The lead is not touched.
 */
export async function insertClientFromLead(
  tx: Tx,
  lead: LeadRow,
  options: { username?: string; packageId?: string | null; packageName?: string; passwordHash?: string } = {},
): Promise<ClientRow> {
  const whatsapp = storedNumber(lead.whatsapp);
  const email = lead.email.trim();
  // A number another client holds makes this one a possible duplicate of them (never a second
  // owner of the number, and never a failed capture): the owner merges or dismisses.
  const holder = whatsapp ? await clientByNumber(tx, whatsapp) : null;
  let duplicateOf = lead.possible_duplicate_of ?? holder?.id ?? null;
  const passwordHash = options.passwordHash ?? (await hashPassword(generatePassword()));
  const base = baseUsername(lead.name);
  for (let attempt = 1; ; attempt++) {
    // The next free name first; after a collision (someone of the same name made at the same
    // moment, whose name the next read would offer again) a random number makes a repeat unlikely.
    const username = options.username ?? (attempt === 1 ? await nextFreeUsername(tx, base) : `${base}${randomInt(10, 100_000)}`);
    try {
      return await tx.transaction(async (savepoint) => {
        const [row] = await savepoint
          .insert(clients)
          .values({
            username,
            password_hash: passwordHash,
            full_name: lead.name,
            email,
            whatsapp,
            communication_method: channelFor(lead, email, whatsapp),
            marketing_opt_in: lead.marketing_opt_in,
            // Consent was given with the lead's submission.
            marketing_opt_in_at: lead.marketing_opt_in ? lead.created_at : null,
            package_id: options.packageId ?? null,
            package_name: options.packageName ?? lead.package_name,
            status: "pending",
            device: lead.device,
            // a MAG / Enigma2 box the order named, with its MAC (issue 32)
            ...deviceOfLead(lead.payload),
            internet_platform: lead.internet_platform === "other" && lead.other_platform ? lead.other_platform : lead.internet_platform,
            possible_duplicate_of: duplicateOf,
          })
          .returning();
        return row;
      });
    } catch (error) {
      const constraint = uniqueViolation(error);
      // The number was taken by a client made at this very moment: flag, and try again.
      if (constraint === "clients_whatsapp_unique" && !duplicateOf && attempt < USERNAME_ATTEMPTS) {
        duplicateOf = (await clientByNumber(tx, whatsapp))?.id ?? null;
        continue;
      }
      if (constraint !== "clients_username_unique" || options.username || attempt >= USERNAME_ATTEMPTS) throw error;
    }
  }
}

/** A one-time link to choose a portal password (stored hashed), for accounts no admin handed a password to. */
export async function setPasswordLink(tx: Tx, business: BusinessProfile, clientId: string, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await tx.insert(passwordResetTokens).values({
    client_id: clientId,
    token_hash: createHash("sha256").update(token).digest("hex"),
    expires_at: new Date(now.getTime() + SET_PASSWORD_LINK_DAYS * 86_400_000),
  });
  return `${business.publicUrl}/client-password-reset?token=${token}`;
}

/** The featured (else first) active app that runs on this device, for the welcome's install guide. */
export async function appForDevice(db: Executor, device: string) {
  if (!device) return null;
  const [row] = await db
    .select({ name: downloads.name, download_url: downloads.download_url, installation_guide: downloads.installation_guide })
    .from(downloads)
    .where(and(eq(downloads.is_active, true), sql`${downloads.device_compatibility} @> ${JSON.stringify([device])}::jsonb`))
    .orderBy(sql`${downloads.is_featured} desc`, downloads.sort_order, downloads.name)
    .limit(1);
  return row ?? null;
}

/** Masks an address for a page anyone holding a payment reference can read: 'ending 4567', 'j***@gmail.com'. */
export function maskedHint(channel: "email" | "whatsapp", recipient: string): string {
  if (channel === "whatsapp") return `ending ${recipient.replace(/\D/g, "").slice(-4)}`;
  const [local, domain] = recipient.split("@");
  return `${local.slice(0, 1)}***@${domain ?? ""}`;
}
