// The partner portal's API (issue 45 items 6 and 3): a sub-reseller's own session, reaching only
// their own rows. Every partner action is audited under their name.
//   POST /api/partner/login {username, password} → {partner} + the sd_partner cookie
//   POST /api/partner/logout → {success}
//   POST /api/partner/password {token, password} → {success}: the link from their invite, once
//   GET  /api/partner/me → {name, username, email, credits, low_credits}
//   GET  /api/partner/ledger → {data}: their credit transfers
// Their lines (item 3) are in ./lines.ts (renew, switch off and on in ./line-actions.ts); buying credits (item 4) in ./credits.ts.
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import { startLogin } from "@/server/auth/login-guard";
import {
  clearPartnerCookie,
  createPartnerSession,
  deletePartnerSession,
  deletePartnerSessionsFor,
  PARTNER_COOKIE,
  requirePartner,
  setPartnerCookie,
} from "@/server/auth/partner-sessions";
import { hashPassword, needsRehash, verifyPassword } from "@/server/auth/passwords";
import { secureCookies } from "@/server/auth/sessions";
import { resellerPasswordTokens, resellers } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { clientIp, enforce, PUBLIC_WRITE_MESSAGE } from "@/server/lib/rate-limit";
import { parseBody } from "@/server/modules/client/service";
import { auditAs, ledgerOf, panelUser } from "@/server/modules/resellers/service";
import { hashToken, TOKEN_RE } from "@/server/modules/resellers/tokens";
import { INVALID_CREDENTIALS_MESSAGE } from "@/shared/client-schemas";
import {
  INVALID_PARTNER_LINK_MESSAGE,
  PARTNER_LOW_CREDITS,
  type PartnerMe,
  partnerLoginSchema,
  partnerPasswordSchema,
} from "@/shared/reseller-schemas";
import credits from "./credits";
import lineActions from "./line-actions";
import lines from "./lines";

const LOGIN_LIMIT_MESSAGE = "Too many sign-in attempts. Please wait a minute and try again.";
export const PARTNER_SUSPENDED_MESSAGE = "Your partner account is suspended. Please contact the business to sort it out.";

const invalidCredentials = () => new AppError(401, "invalid_credentials", INVALID_CREDENTIALS_MESSAGE);
const invalidLink = () => new AppError(400, "invalid_token", INVALID_PARTNER_LINK_MESSAGE);

let dummyHash: Promise<string> | null = null;
const dummy = () => {
  dummyHash ??= hashPassword(randomBytes(18).toString("base64url"));
  return dummyHash;
};

const routes: FastifyPluginAsync = async (app) => {
  app.post("/partner/login", async (request, reply) => {
    const parsed = partnerLoginSchema.safeParse(request.body ?? {});
    const username = parsed.success ? parsed.data.username : "";
    const attempt = await startLogin(app, request, reply, {
      kind: "partner",
      account: username.toLowerCase(),
      message: LOGIN_LIMIT_MESSAGE,
    });
    if (!parsed.success) {
      await verifyPassword("", await dummy());
      throw invalidCredentials();
    }
    const [row] = await app.db.select().from(resellers).where(sql`lower(${resellers.username}) = lower(${username})`).limit(1);
    const matches = await verifyPassword(parsed.data.password, row?.password_hash ?? (await dummy()));
    if (!row?.password_hash || !matches) {
      await attempt.failed();
      throw invalidCredentials();
    }
    // The right password, but the owner has suspended them: their sign-in stops (their lines do not).
    if (row.status !== "active") throw new AppError(403, "suspended", PARTNER_SUSPENDED_MESSAGE);
    if (needsRehash(row.password_hash)) {
      await app.db
        .update(resellers)
        .set({ password_hash: await hashPassword(parsed.data.password) })
        .where(eq(resellers.id, row.id));
    }
    await deletePartnerSession(app.db, request.cookies[PARTNER_COOKIE]);
    const { token, expiresAt } = await createPartnerSession(app.db, row.id, app.config.SESSION_TTL_HOURS);
    setPartnerCookie(reply, token, expiresAt, secureCookies(app.config));
    await attempt.succeeded();
    await auditAs(
      app.db,
      { kind: "partner", id: row.id, username: row.username },
      { action: "login", resource: "reseller", resourceId: row.id },
    );
    return { partner: { name: row.name, username: row.username } };
  });

  app.post("/partner/logout", async (request, reply) => {
    await deletePartnerSession(app.db, request.cookies[PARTNER_COOKIE]);
    clearPartnerCookie(reply);
    return { success: true };
  });

  app.post("/partner/password", async (request, reply) => {
    await enforce(app.db, [
      { key: `partner-password:ip:${clientIp(request)}`, limit: app.config.PUBLIC_WRITE_LIMIT_PER_MIN, message: PUBLIC_WRITE_MESSAGE },
    ]);
    const raw = (request.body ?? {}) as Record<string, unknown>;
    const token = typeof raw.token === "string" ? raw.token.trim() : "";
    if (!TOKEN_RE.test(token)) throw invalidLink();
    const live = and(
      eq(resellerPasswordTokens.token_hash, hashToken(token)),
      isNull(resellerPasswordTokens.used_at),
      gt(resellerPasswordTokens.expires_at, sql`now()`),
    );
    const [found] = await app.db.select({ id: resellerPasswordTokens.id }).from(resellerPasswordTokens).where(live).limit(1);
    if (!found) throw invalidLink();
    const { password } = parseBody(partnerPasswordSchema, { ...raw, token });
    const passwordHash = await hashPassword(password);
    const now = new Date();
    await app.db.transaction(async (tx) => {
      // The conditional update makes the link single-use, however many arrive at once.
      const [used] = await tx
        .update(resellerPasswordTokens)
        .set({ used_at: now })
        .where(live)
        .returning({ id: resellerPasswordTokens.id, resellerId: resellerPasswordTokens.reseller_id });
      if (!used) throw invalidLink();
      const [partner] = await tx
        .update(resellers)
        .set({ password_hash: passwordHash, updated_at: now })
        .where(eq(resellers.id, used.resellerId))
        .returning();
      await tx
        .update(resellerPasswordTokens)
        .set({ used_at: now })
        .where(
          and(
            eq(resellerPasswordTokens.reseller_id, used.resellerId),
            isNull(resellerPasswordTokens.used_at),
            ne(resellerPasswordTokens.id, used.id),
          ),
        );
      await deletePartnerSessionsFor(tx, used.resellerId);
      await auditAs(
        tx,
        { kind: "partner", id: partner.id, username: partner.username },
        {
          action: "set-password",
          resource: "reseller",
          resourceId: partner.id,
        },
      );
    });
    clearPartnerCookie(reply);
    return { success: true, message: "Your password is set. Please sign in." };
  });

  // Everything below needs a partner session, and reads only that partner's rows.
  await app.register(async (own) => {
    own.addHook("onRequest", requirePartner);

    own.get("/partner/me", async (request, reply): Promise<PartnerMe> => {
      reply.header("cache-control", "no-store");
      const [row] = await app.db
        .select()
        .from(resellers)
        .where(eq(resellers.id, request.partner?.id ?? ""));
      const credits = row.panel_user_id ? ((await panelUser(app, row.panel_user_id).catch(() => null))?.credits ?? null) : null;
      return {
        name: row.name,
        username: row.username,
        email: row.email,
        credits,
        low_credits: credits !== null && credits < PARTNER_LOW_CREDITS,
      };
    });

    own.get("/partner/ledger", async (request) => ({ data: await ledgerOf(app, request.partner?.id ?? "") }));

    await own.register(lines);
    await own.register(lineActions);
    await own.register(credits);
  });
};

export default routes;
