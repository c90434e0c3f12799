// Route guards. Every /api/admin/* route except login requires an admin session; every
// /api/client/* route except login and password reset requires a client session (docs/architecture.md, "Sessions").
// A guard puts the signed-in identity on the request so handlers never read ids from the body.
import { eq } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { admins, clients } from "@/server/db/schema";
import { AppError, unauthorized } from "@/server/lib/errors";
import { SUSPENDED_MESSAGE } from "@/shared/client-schemas";
import { readAdminSession, readClientSession } from "./sessions";

export interface SignedInAdmin {
  id: string;
  email: string;
  name: string;
  sessionId: string;
  expiresAt: Date;
}

export interface SignedInClient {
  id: string;
  username: string;
  status: string;
  sessionId: string;
  expiresAt: Date;
}

declare module "fastify" {
  interface FastifyRequest {
    admin?: SignedInAdmin;
    client?: SignedInClient;
  }
}

/** preHandler: 401 unless the request carries a live admin session. */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const app = request.server;
  const session = await readAdminSession(app, request, reply);
  if (!session) throw unauthorized("Please sign in as an admin.");
  const [admin] = await app.db
    .select({ id: admins.id, email: admins.email, name: admins.name })
    .from(admins)
    .where(eq(admins.id, session.adminId));
  if (!admin) throw unauthorized("Please sign in as an admin.");
  request.admin = { ...admin, sessionId: session.sessionId, expiresAt: session.expiresAt };
}

/**
 * Where a suspended client may still go: their session (the portal shows a page saying they
 * are suspended and how to reach the business), renew, which answers its own 409, and the
 * download of their data and their correction and erasure requests (POPIA s23 and s24: their
 * data is theirs whatever their standing).
 */
const OPEN_WHILE_SUSPENDED = new Set([
  "/api/client/session",
  "/api/client/renew",
  "/api/client/data-export",
  "/api/client/data-requests",
  "/api/client/erasure-request",
  "/api/client/correction-request",
]);

/** preHandler: 401 unless the request carries a live client session; 403 for a suspended client outside OPEN_WHILE_SUSPENDED. */
export async function requireClient(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const app = request.server;
  const session = await readClientSession(app, request, reply);
  if (!session) throw unauthorized("Please sign in to your client portal.");
  const [client] = await app.db
    .select({ id: clients.id, username: clients.username, status: clients.status })
    .from(clients)
    .where(eq(clients.id, session.clientId));
  if (!client) throw unauthorized("Please sign in to your client portal.");
  request.client = { ...client, sessionId: session.sessionId, expiresAt: session.expiresAt };
  if (client.status === "suspended" && !OPEN_WHILE_SUSPENDED.has(request.routeOptions.url ?? "")) {
    throw new AppError(403, "suspended", SUSPENDED_MESSAGE);
  }
}
