// Sessions (docs/architecture.md, "Sessions"): a 32-byte random token travels in an httpOnly cookie; the
// database keeps only its SHA-256, so a leaked table cannot be replayed as cookies. Admin and
// client sessions are separate kinds with separate cookies. Each use slides the expiry, at
// most once per SLIDE_AFTER_MS so a busy browser does not cost a write per request.
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lte } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import { sessions } from "@/server/db/schema";

export const ADMIN_COOKIE = "sd_admin";
export const CLIENT_COOKIE = "sd_client";

export type SessionKind = "admin" | "client";

/** An expiry is pushed forward only when it was last pushed longer ago than this. */
export const SLIDE_AFTER_MS = 5 * 60 * 1000;

const HOUR_MS = 60 * 60 * 1000;
// 32 bytes in base64url, unpadded: exactly 43 characters of the URL-safe alphabet.
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export type NewSession = { kind: "admin"; adminId: string; ttlHours: number } | { kind: "client"; clientId: string; ttlHours: number };

export interface Session {
  id: string;
  kind: SessionKind;
  adminId: string | null;
  clientId: string | null;
  expiresAt: Date;
  lastSeenAt: Date;
  createdAt: Date;
}

export interface FindOptions {
  /** the sliding window; by default the session keeps the window it was created with */
  ttlHours?: number;
  /** the clock (tests) */
  now?: Date;
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function createSession(db: Db, input: NewSession, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + input.ttlHours * HOUR_MS);
  await db.insert(sessions).values({
    token_hash: hashToken(token),
    kind: input.kind,
    admin_id: input.kind === "admin" ? input.adminId : null,
    client_id: input.kind === "client" ? input.clientId : null,
    expires_at: expiresAt,
    created_at: now,
    last_seen_at: now,
  });
  return { token, expiresAt };
}

/** The live session of that kind for a token, or null (missing, expired, other kind, malformed). */
export async function findSession(
  db: Db,
  token: string | undefined,
  kind: SessionKind,
  options: FindOptions = {},
): Promise<Session | null> {
  return (await lookupSession(db, token, kind, options))?.session ?? null;
}

async function lookupSession(
  db: Db,
  token: string | undefined,
  kind: SessionKind,
  options: FindOptions,
): Promise<{ session: Session; slid: boolean } | null> {
  // A junk cookie costs no database round trip.
  if (!token || !TOKEN_RE.test(token)) return null;
  const now = options.now ?? new Date();
  const [row] = await db
    .select()
    .from(sessions)
    .where(eq(sessions.token_hash, hashToken(token)))
    .limit(1);
  if (!row || row.kind !== kind || row.expires_at.getTime() <= now.getTime()) return null;
  const session: Session = {
    id: row.id,
    kind,
    adminId: row.admin_id,
    clientId: row.client_id,
    expiresAt: row.expires_at,
    lastSeenAt: row.last_seen_at,
    createdAt: row.created_at,
  };
  if (now.getTime() - row.last_seen_at.getTime() <= SLIDE_AFTER_MS) return { session, slid: false };
  // expires_at - last_seen_at is the window the session was given (at creation or last slide).
  const windowMs = options.ttlHours !== undefined ? options.ttlHours * HOUR_MS : row.expires_at.getTime() - row.last_seen_at.getTime();
  const expiresAt = new Date(now.getTime() + windowMs);
  await db.update(sessions).set({ expires_at: expiresAt, last_seen_at: now }).where(eq(sessions.id, row.id));
  return { session: { ...session, expiresAt, lastSeenAt: now }, slid: true };
}

/**
 * Whether a session still exists and has not expired, without sliding it: for long-lived
 * connections (the change feed) that must notice a logout or revocation, but must not keep
 * an unattended browser signed in forever.
 */
export async function isSessionLive(db: Db, sessionId: string, now = new Date()): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), gt(sessions.expires_at, now)))
    .limit(1);
  return row !== undefined;
}

/** Logout: true when a session was removed. */
export async function deleteSession(db: Db, token: string | undefined): Promise<boolean> {
  if (!token || !TOKEN_RE.test(token)) return false;
  const removed = await db
    .delete(sessions)
    .where(eq(sessions.token_hash, hashToken(token)))
    .returning({ id: sessions.id });
  return removed.length > 0;
}

/** Sign someone out everywhere (password change, suspension, removal). Returns how many. */
export async function deleteSessionsFor(db: Db, owner: { clientId: string } | { adminId: string }): Promise<number> {
  const where = "clientId" in owner ? eq(sessions.client_id, owner.clientId) : eq(sessions.admin_id, owner.adminId);
  const removed = await db.delete(sessions).where(where).returning({ id: sessions.id });
  return removed.length;
}

/** Housekeeping: drop expired sessions. Returns how many. */
export async function purgeExpired(db: Db, now = new Date()): Promise<number> {
  const removed = await db.delete(sessions).where(lte(sessions.expires_at, now)).returning({ id: sessions.id });
  return removed.length;
}

// ---- Fastify helpers ----------------------------------------------------------------------

export interface AdminSession {
  sessionId: string;
  adminId: string;
  expiresAt: Date;
}

export interface ClientSession {
  sessionId: string;
  clientId: string;
  expiresAt: Date;
}

const cookieName = (kind: SessionKind) => (kind === "admin" ? ADMIN_COOKIE : CLIENT_COOKIE);

/** Cookies carry `Secure` when the public address is https. */
export const secureCookies = (config: Pick<Config, "PUBLIC_URL">) => config.PUBLIC_URL?.startsWith("https://") === true;

// Guards and routes may each ask within one request; the database is asked once.
const lookups = new WeakMap<FastifyRequest, Map<SessionKind, Promise<{ session: Session; slid: boolean } | null>>>();

async function readSession(
  app: FastifyInstance,
  request: FastifyRequest,
  kind: SessionKind,
  reply?: FastifyReply,
): Promise<Session | null> {
  const token = request.cookies?.[cookieName(kind)];
  if (!token) return null;
  let perRequest = lookups.get(request);
  if (!perRequest) {
    perRequest = new Map();
    lookups.set(request, perRequest);
  }
  let lookup = perRequest.get(kind);
  if (!lookup) {
    lookup = lookupSession(app.db, token, kind, { ttlHours: app.config.SESSION_TTL_HOURS });
    perRequest.set(kind, lookup);
  }
  const found = await lookup;
  // When the expiry slid, the cookie must follow or the browser would drop it at the old time.
  if (found?.slid && reply && !reply.sent) setSessionCookie(reply, kind, token, found.session.expiresAt, secureCookies(app.config));
  return found?.session ?? null;
}

/**
 * The admin session of this request, or null. Pass `reply` to re-issue the cookie with the
 * slid expiry (guards should; a hijacked/streaming reply need not).
 */
export async function readAdminSession(app: FastifyInstance, request: FastifyRequest, reply?: FastifyReply): Promise<AdminSession | null> {
  const session = await readSession(app, request, "admin", reply);
  if (!session?.adminId) return null;
  return { sessionId: session.id, adminId: session.adminId, expiresAt: session.expiresAt };
}

/** The client session of this request, or null. `reply` as for readAdminSession. */
export async function readClientSession(
  app: FastifyInstance,
  request: FastifyRequest,
  reply?: FastifyReply,
): Promise<ClientSession | null> {
  const session = await readSession(app, request, "client", reply);
  if (!session?.clientId) return null;
  return { sessionId: session.id, clientId: session.clientId, expiresAt: session.expiresAt };
}

export function setSessionCookie(reply: FastifyReply, kind: SessionKind, token: string, expiresAt: Date, secure: boolean): void {
  reply.setCookie(cookieName(kind), token, { httpOnly: true, sameSite: "lax", path: "/", secure, expires: expiresAt });
}

export function clearSessionCookie(reply: FastifyReply, kind: SessionKind): void {
  reply.clearCookie(cookieName(kind), { httpOnly: true, sameSite: "lax", path: "/" });
}
