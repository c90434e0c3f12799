// Client sign-in (spec §4, §7 client-login-cookie / -logout-cookie / -session-status, §8):
//   POST /api/client/login {username, password} → {success, client} + the sd_client cookie
//   POST /api/client/logout → {success} (always; clears the cookie)
//   GET  /api/client/session → {success, client} | 401
// Any sign-in failure is the one 401 'Invalid username or password', and an unknown username
// costs the same password check as a known one, so the answer tells nothing about accounts.
import { randomBytes } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireClient } from "@/server/auth/guards";
import { startLogin } from "@/server/auth/login-guard";
import { hashPassword, needsRehash, verifyPassword } from "@/server/auth/passwords";
import { CLIENT_COOKIE, clearSessionCookie, createSession, deleteSession, secureCookies, setSessionCookie } from "@/server/auth/sessions";
import { clients } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { type ClientSessionResponse, INVALID_CREDENTIALS_MESSAGE } from "@/shared/client-schemas";
import { clientLoginSchema } from "@/shared/schemas";
import { loadOwnClient, toSummary } from "./service";

export const LOGIN_LIMIT_MESSAGE = "Too many sign-in attempts. Please wait a minute and try again.";

const invalidCredentials = () => new AppError(401, "invalid_credentials", INVALID_CREDENTIALS_MESSAGE);

// A hash of a random password, made once per process, checked when the username is unknown.
let dummyHash: Promise<string> | null = null;
const dummy = () => {
  dummyHash ??= hashPassword(randomBytes(18).toString("base64url"));
  return dummyHash;
};

/** The account a sign-in names, as the limits count it: the username without case or spaces around it. */
export const accountOf = (username: string) => username.trim().toLowerCase();

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const _limit = () => app.config.LOGIN_LIMIT_PER_MIN;

  app.post("/client/login", async (request, reply): Promise<ClientSessionResponse> => {
    const parsed = clientLoginSchema.safeParse(request.body ?? {});
    const username = parsed.success ? parsed.data.username : "";
    // Per IP, and per account sparing browsers that signed in to it before (auth/login-guard.ts).
    const attempt = await startLogin(app, request, reply, { kind: "client", account: accountOf(username), message: LOGIN_LIMIT_MESSAGE });
    // Spec §5: any failure, a missing field included, is invalid credentials.
    if (!parsed.success) {
      await verifyPassword("", await dummy());
      throw invalidCredentials();
    }

    // Usernames are matched without regard to case (phones capitalise the first letter); an
    // exact match wins should two accounts differ only in case.
    const [client] = await app.db
      .select({
        id: clients.id,
        username: clients.username,
        full_name: clients.full_name,
        status: clients.status,
        hash: clients.password_hash,
      })
      .from(clients)
      .where(sql`lower(${clients.username}) = lower(${username})`)
      .orderBy(desc(sql`${clients.username} = ${username}`))
      .limit(1);
    const matches = await verifyPassword(parsed.data.password, client?.hash ?? (await dummy()));
    if (!client || !matches) {
      await attempt.failed();
      throw invalidCredentials();
    }

    if (needsRehash(client.hash)) {
      await app.db
        .update(clients)
        .set({ password_hash: await hashPassword(parsed.data.password) })
        .where(eq(clients.id, client.id));
    }
    // A session this browser held before is ended rather than left behind.
    await deleteSession(app.db, request.cookies[CLIENT_COOKIE]);
    const { token, expiresAt } = await createSession(app.db, {
      kind: "client",
      clientId: client.id,
      ttlHours: app.config.SESSION_TTL_HOURS,
    });
    setSessionCookie(reply, "client", token, expiresAt, secureCookies(app.config));
    await attempt.succeeded();
    request.log.info({ clientId: client.id }, "client signed in");
    return { success: true, client: toSummary(client) };
  });

  app.post("/client/logout", async (request, reply) => {
    await deleteSession(app.db, request.cookies[CLIENT_COOKIE]);
    clearSessionCookie(reply, "client");
    return { success: true };
  });

  app.get("/client/session", { preHandler: requireClient }, async (request): Promise<ClientSessionResponse> => {
    const client = await loadOwnClient(app, request);
    return { success: true, client: toSummary(client) };
  });
};

export default routes;
