// The first admin: from ADMIN_EMAIL/ADMIN_PASSWORD, or — when unset and no admin exists — a
// random password printed once. There is no built-in default password. A lost one is replaced
// with `npm run admin:password` (resetFirstAdminPassword).
import { asc, count, eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { admins } from "@/server/db/schema";
import { generatePassword, hashPassword } from "./passwords";
import { deleteSessionsFor } from "./sessions";

export interface BootstrapResult {
  created: boolean;
  email?: string;
  /** only when generated: the caller prints it once */
  generatedPassword?: string;
}

export async function ensureAdmin(db: Db, email?: string, password?: string): Promise<BootstrapResult> {
  const [{ n }] = await db.select({ n: count() }).from(admins);
  if (n > 0) {
    // An operator who sets ADMIN_EMAIL/ADMIN_PASSWORD for an account that does not exist yet gets it.
    if (email && password) {
      const existing = await db.select({ id: admins.id }).from(admins).where(eq(admins.email, email.toLowerCase()));
      if (existing.length === 0) {
        await db.insert(admins).values({ email: email.toLowerCase(), name: "Administrator", password_hash: await hashPassword(password) });
        return { created: true, email: email.toLowerCase() };
      }
    }
    return { created: false };
  }
  const adminEmail = (email ?? "admin@streamdesk.local").toLowerCase();
  const generatedPassword = password ? undefined : generatePassword();
  const inserted = await db
    .insert(admins)
    .values({ email: adminEmail, name: "Administrator", password_hash: await hashPassword(password ?? (generatedPassword as string)) })
    .onConflictDoNothing()
    .returning({ id: admins.id });
  // Another process made it first: its password is the one that works.
  if (inserted.length === 0) return { created: false };
  return { created: true, email: adminEmail, generatedPassword };
}

/**
 * The first admin (the oldest account) gets a new random password, returned once; the sessions
 * signed in with the old one end. Null when there is no admin yet (the first start makes one).
 */
export async function resetFirstAdminPassword(db: Db): Promise<{ email: string; password: string } | null> {
  const [first] = await db
    .select({ id: admins.id, email: admins.email })
    .from(admins)
    .orderBy(asc(admins.created_at), asc(admins.id))
    .limit(1);
  if (!first) return null;
  const password = generatePassword();
  await db
    .update(admins)
    .set({ password_hash: await hashPassword(password) })
    .where(eq(admins.id, first.id));
  await deleteSessionsFor(db, { adminId: first.id });
  return { email: first.email, password };
}

/** What the terminal shows of a password made here (main.ts on a first start, `npm run admin:password`). */
export function adminLoginBox(heading: string, email: string, password: string): string {
  return [
    "",
    `  ${heading} Sign in at /admin/login with:`,
    `    email:    ${email}`,
    `    password: ${password}`,
    "  This password is shown only once: change it after signing in.",
    "",
  ].join("\n");
}
