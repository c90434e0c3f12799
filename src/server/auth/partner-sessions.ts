// Partner sessions (issue 45 item 6): a sub-reseller's sign-in to /partner, a third kind beside
// admin and client, in its own cookie and its own table (reseller_sessions), so no admin or
// client guard ever accepts one and a partner's cookie reaches nothing but /api/partner/*.
// The same rules as auth/sessions.ts: 32 random bytes in an httpOnly cookie, only the SHA-256
// kept, the expiry slid at most once per SLIDE_AFTER_MS. A suspended partner's sessions are
// deleted at the suspension, and the guard refuses one that is suspended all the same.
import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Db } from "@/server/db/client";
import { resellerSessions, resellers } from "@/server/db/schema";
import { unauthorized } from "@/server/lib/errors";
import { SLIDE_AFTER_MS, secureCookies } from "./sessions";

export const PARTNER_COOKIE = "sd_partner";

export interface SignedInPartner {
  id: string;
  username: string;
  name: string;
  /** the sub-reseller's id on the panel (null until the panel account is made) */
  panelUserId: string | null;
  sessionId: string;
}

declare module "fastify" {
  interface FastifyRequest {
    partner?: SignedInPartner;
  }
}

const HOUR_MS = 60 * 60 * 1000;
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function createPartnerSession(db: Db, resellerId: string, ttlHours: number, now = new Date()) {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + ttlHours * HOUR_MS);
  await db.insert(resellerSessions).values({
    token_hash: hashToken(token),
    reseller_id: resellerId,
    expires_at: expiresAt,
    created_at: now,
    last_seen_at: now,
  });
  return { token, expiresAt };
}

/** Logout: true when a session was removed. */
export async function deletePartnerSession(db: Db, token: string | undefined): Promise<boolean> {
  if (!token || !TOKEN_RE.test(token)) return false;
  const removed = await db
    .delete(resellerSessions)
    .where(eq(resellerSessions.token_hash, hashToken(token)))
    .returning({ id: resellerSessions.id });
  return removed.length > 0;
}

/** Sign a partner out everywhere (suspension, a new password). */
export async function deletePartnerSessionsFor(db: Pick<Db, "delete">, resellerId: string): Promise<void> {
  await db.delete(resellerSessions).where(eq(resellerSessions.reseller_id, resellerId));
}

export function setPartnerCookie(reply: FastifyReply, token: string, expiresAt: Date, secure: boolean): void {
  reply.setCookie(PARTNER_COOKIE, token, { httpOnly: true, sameSite: "lax", path: "/", secure, expires: expiresAt });
}

export function clearPartnerCookie(reply: FastifyReply): void {
  reply.clearCookie(PARTNER_COOKIE, { httpOnly: true, sameSite: "lax", path: "/" });
}

/** preHandler: 401 unless the request carries a live partner session of an active partner. */
export async function requirePartner(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const app = request.server;
  const token = request.cookies?.[PARTNER_COOKIE];
  const refused = () => unauthorized("Please sign in to your partner portal.");
  if (!token || !TOKEN_RE.test(token)) throw refused();
  const now = new Date();
  const [row] = await app.db
    .select({
      sessionId: resellerSessions.id,
      expiresAt: resellerSessions.expires_at,
      lastSeenAt: resellerSessions.last_seen_at,
      id: resellers.id,
      username: resellers.username,
      name: resellers.name,
      panelUserId: resellers.panel_user_id,
      status: resellers.status,
    })
    .from(resellerSessions)
    .innerJoin(resellers, eq(resellers.id, resellerSessions.reseller_id))
    .where(eq(resellerSessions.token_hash, hashToken(token)))
    .limit(1);
  if (!row || row.expiresAt.getTime() <= now.getTime() || row.status !== "active") throw refused();
  if (now.getTime() - row.lastSeenAt.getTime() > SLIDE_AFTER_MS) {
    const expiresAt = new Date(now.getTime() + app.config.SESSION_TTL_HOURS * HOUR_MS);
    await app.db.update(resellerSessions).set({ expires_at: expiresAt, last_seen_at: now }).where(eq(resellerSessions.id, row.sessionId));
    if (!reply.sent) setPartnerCookie(reply, token, expiresAt, secureCookies(app.config));
  }
  request.partner = { id: row.id, username: row.username, name: row.name, panelUserId: row.panelUserId, sessionId: row.sessionId };
}
