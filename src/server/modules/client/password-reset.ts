// Client password reset:
//   POST /api/client/password-reset/request {identifier} → always 200 with the same words
//   POST /api/client/password-reset/confirm {token, password} → new password, every session ended
// A token is 32 random bytes; only its SHA-256 is stored, it expires in 30 minutes and works
// once. The request's answer and its timing are the same whether or not an account matched.
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, ne, or, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { hashPassword } from "@/server/auth/passwords";
import { clearSessionCookie } from "@/server/auth/sessions";
import { clients, passwordResetTokens, sessions } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { emailOf, whatsappOf } from "@/server/lib/contact";
import { AppError } from "@/server/lib/errors";
import { loadTemplates } from "@/server/lib/message-templates";
import { enqueue } from "@/server/lib/outbox";
import { clientIp, enforce, PUBLIC_WRITE_MESSAGE } from "@/server/lib/rate-limit";
import {
  INVALID_RESET_TOKEN_MESSAGE,
  PASSWORD_RESET_DONE_MESSAGE,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  RESET_REQUESTED_MESSAGE,
  RESET_TOKEN_TTL_MINUTES,
} from "@/shared/client-schemas";
import { resetLinkMessage } from "./messages";
import { notBefore, parseBody, queuePasswordChanged } from "./service";

/** Every reset request takes at least this long, so a matching account cannot be timed. */
export const RESET_REQUEST_MIN_MS = 250;
/** One identifier can match several accounts sharing an e-mail address; never more than this. */
const MAX_ACCOUNTS_PER_REQUEST = 5;
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const invalidToken = () => new AppError(400, "invalid_token", INVALID_RESET_TOKEN_MESSAGE);

/** Queue a reset link to every account the identifier names (username, or e-mail address). */
async function sendResetLinks(app: FastifyInstance, identifier: string): Promise<number> {
  const wanted = identifier.toLowerCase();
  const matches = await app.db
    .select()
    .from(clients)
    .where(or(sql`lower(${clients.username}) = ${wanted}`, sql`lower(${clients.email}) = ${wanted}`))
    .limit(MAX_ACCOUNTS_PER_REQUEST);
  if (matches.length === 0) return 0;
  // Read outside the transaction: PGlite has one connection, which a transaction holds.
  const business = await loadBusiness(app);
  const expiresAt = new Date(Date.now() + RESET_TOKEN_TTL_MINUTES * 60_000);
  const templates = await loadTemplates(app.db);
  for (const client of matches) {
    const token = randomBytes(32).toString("base64url");
    // The link is the secret: the outbox keeps it encrypted and the body only marks its place.
    const link = `${business.publicUrl}/client-password-reset?token=${token}`;
    const message = resetLinkMessage(business, { name: client.full_name, username: client.username }, templates);
    const email = emailOf(client);
    const whatsapp = whatsappOf(client);
    await app.db.transaction(async (tx) => {
      await tx.insert(passwordResetTokens).values({ client_id: client.id, token_hash: hashToken(token), expires_at: expiresAt });
      // WhatsApp queued always; the outbox sends it only where WhatsApp is configured. The
      // kind's own subject on a WhatsApp row too (the owner's queue reads it).
      const channels = [
        { channel: "email" as const, recipient: email },
        { channel: "whatsapp" as const, recipient: whatsapp },
      ];
      for (const { channel, recipient } of channels) {
        if (!recipient) continue;
        await enqueue(tx, {
          channel,
          recipient,
          subject: message.subject,
          body: message.body,
          secret: link,
          kind: "password-reset",
          failure: message.error,
          client_id: client.id,
        });
      }
    });
  }
  app.outbox.nudge();
  return matches.length;
}

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const publicLimit = () => app.config.PUBLIC_WRITE_LIMIT_PER_MIN;

  app.post("/client/password-reset/request", async (request) => {
    const startedAt = Date.now();
    const { identifier } = parseBody(passwordResetRequestSchema, request.body);
    await enforce(app.db, [
      { key: `password-reset:ip:${clientIp(request)}`, limit: publicLimit(), message: PUBLIC_WRITE_MESSAGE },
      // Per identifier too, so one account's inbox cannot be flooded from many addresses.
      { key: `password-reset:id:${identifier.toLowerCase()}`, limit: app.config.LOGIN_LIMIT_PER_MIN, message: PUBLIC_WRITE_MESSAGE },
    ]);
    const sent = await sendResetLinks(app, identifier);
    if (sent) request.log.info({ accounts: sent }, "password reset link queued");
    await notBefore(startedAt, RESET_REQUEST_MIN_MS);
    return { success: true, message: RESET_REQUESTED_MESSAGE };
  });

  app.post("/client/password-reset/confirm", async (request, reply) => {
    await enforce(app.db, [{ key: `password-reset-confirm:ip:${clientIp(request)}`, limit: publicLimit(), message: PUBLIC_WRITE_MESSAGE }]);
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const token = typeof raw.token === "string" ? raw.token.trim() : "";
    if (!TOKEN_RE.test(token)) throw invalidToken();
    const tokenHash = hashToken(token);
    const live = and(
      eq(passwordResetTokens.token_hash, tokenHash),
      isNull(passwordResetTokens.used_at),
      gt(passwordResetTokens.expires_at, sql`now()`),
    );
    // A dead link says so before any password advice: a new password cannot help it.
    const [found] = await app.db.select({ id: passwordResetTokens.id }).from(passwordResetTokens).where(live).limit(1);
    if (!found) throw invalidToken();
    const { password } = parseBody(passwordResetConfirmSchema, { ...raw, token });

    const passwordHash = await hashPassword(password);
    const business = await loadBusiness(app);
    const now = new Date();
    await app.db.transaction(async (tx) => {
      // The conditional update is what makes the token single-use, however many confirms race.
      const [used] = await tx
        .update(passwordResetTokens)
        .set({ used_at: now })
        .where(live)
        .returning({ id: passwordResetTokens.id, clientId: passwordResetTokens.client_id });
      if (!used) throw invalidToken();
      const [client] = await tx
        .update(clients)
        .set({ password_hash: passwordHash, updated_at: now })
        .where(eq(clients.id, used.clientId))
        .returning();
      if (!client) throw invalidToken();
      // Any other link still out there dies with this reset, and every session ends.
      await tx
        .update(passwordResetTokens)
        .set({ used_at: now })
        .where(and(eq(passwordResetTokens.client_id, client.id), isNull(passwordResetTokens.used_at), ne(passwordResetTokens.id, used.id)));
      await tx.delete(sessions).where(eq(sessions.client_id, client.id));
      await queuePasswordChanged(tx, business, client, { at: now, signedOut: "everywhere" });
    });
    app.outbox.nudge();
    clearSessionCookie(reply, "client");
    return { success: true, message: PASSWORD_RESET_DONE_MESSAGE };
  });
};

export default routes;
