// Admin sign-in (spec §4, §7, §8; docs/architecture.md, "API" and "Sessions") and the admins themselves:
//   POST /api/admin/login {email, password}  → {success, admin, expiresAt} + sd_admin cookie
//   POST /api/admin/logout                   → {success: true} (with or without a session)
//   GET  /api/admin/session                  → {success, admin, expiresAt} or 401
//   GET/POST /api/admin/admins, GET/PATCH/DELETE /api/admin/admins/:id
//   POST /api/admin/password {currentPassword, newPassword}
// Any failed login answers the same 401 'Invalid email or password', and costs the same
// password check whether or not the account exists, so neither the answer nor its timing
// tells an attacker which e-mail addresses have accounts.
import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { requireAdmin } from "@/server/auth/guards";
import { startLogin } from "@/server/auth/login-guard";
import { hashPassword, needsRehash, verifyPassword } from "@/server/auth/passwords";
import { ADMIN_COOKIE, clearSessionCookie, createSession, deleteSession, secureCookies, setSessionCookie } from "@/server/auth/sessions";
import { admins, sessions } from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { AppError, badRequest, conflict, notFound } from "@/server/lib/errors";
import { limitGuesses } from "@/server/lib/rate-limit";
import { guardUnique } from "@/server/modules/admin-catalogue/crud";
import { bodyObject, parseBody, rowId } from "@/server/modules/admin-catalogue/validation";
import { adminCreateSchema, adminPatchSchema, passwordChangeSchema } from "@/shared/admin-schemas";
import { adminLoginSchema } from "@/shared/schemas";

export const INVALID_CREDENTIALS = "Invalid email or password";
export const LOGIN_LIMIT_MESSAGE = "Too many sign-in attempts. Please wait a minute and try again.";
export const LAST_ADMIN_MESSAGE = "You cannot remove the last admin.";
const WRONG_PASSWORD = "Your current password is not correct";

const invalidCredentials = () => new AppError(401, "invalid_credentials", INVALID_CREDENTIALS);
const adminView = (a: { id: string; email: string; name: string }) => ({ id: a.id, email: a.email, name: a.name });
const adminRow = (a: typeof admins.$inferSelect) => ({ ...adminView(a), created_at: a.created_at, updated_at: a.updated_at });
const emailTaken = { admins_email_unique: { field: "email", message: "Another admin already uses this email address" } };

// Verified when the e-mail is unknown, so a miss costs one scrypt like a hit does.
let dummyHash: Promise<string> | null = null;
const dummy = () => {
  dummyHash ??= hashPassword("not-a-real-password-but-the-same-cost");
  return dummyHash;
};

const noStore = (reply: FastifyReply) => reply.header("cache-control", "no-store");

const routes: FastifyPluginAsync = async (app) => {
  app.post("/admin/login", async (request, reply) => {
    noStore(reply);
    const body = bodyObject(request.body);
    const rawEmail = typeof body.email === "string" ? body.email.trim().toLowerCase().slice(0, 254) : "";
    // Per IP (one source guessing many accounts) and per account (many sources guessing one),
    // the account's limit sparing browsers that signed in to it before (auth/login-guard.ts).
    const attempt = await startLogin(app, request, reply, { kind: "admin", account: rawEmail, message: LOGIN_LIMIT_MESSAGE });

    const parsed = adminLoginSchema.safeParse(body);
    const [admin] = parsed.success ? await app.db.select().from(admins).where(eq(admins.email, parsed.data.email)) : [];
    const password = parsed.success ? parsed.data.password : "";
    const ok = await verifyPassword(password, admin?.password_hash ?? (await dummy()));
    if (!admin || !ok || !parsed.success) {
      await attempt.failed();
      throw invalidCredentials();
    }

    if (needsRehash(admin.password_hash)) {
      await app.db
        .update(admins)
        .set({ password_hash: await hashPassword(password) })
        .where(eq(admins.id, admin.id));
    }
    // Signing in again ends the session this browser held (it is not left alive beside the new one).
    await deleteSession(app.db, request.cookies?.[ADMIN_COOKIE]);
    const { token, expiresAt } = await createSession(app.db, { kind: "admin", adminId: admin.id, ttlHours: app.config.SESSION_TTL_HOURS });
    setSessionCookie(reply, "admin", token, expiresAt, secureCookies(app.config));
    await attempt.succeeded();
    return { success: true, admin: adminView(admin), expiresAt: expiresAt.toISOString() };
  });

  app.post("/admin/logout", async (request, reply) => {
    noStore(reply);
    await deleteSession(app.db, request.cookies?.[ADMIN_COOKIE]);
    clearSessionCookie(reply, "admin");
    return { success: true };
  });

  app.get("/admin/session", { onRequest: requireAdmin }, async (request, reply) => {
    noStore(reply);
    const admin = request.admin!;
    return { success: true, admin: adminView(admin), expiresAt: admin.expiresAt.toISOString() };
  });

  // ---- admins ----

  app.get("/admin/admins", { onRequest: requireAdmin }, async () => {
    const rows = await app.db.select().from(admins).orderBy(asc(admins.email));
    return { data: rows.map(adminRow) };
  });

  app.post("/admin/admins", { onRequest: requireAdmin }, async (request, reply) => {
    const input = parseBody(adminCreateSchema, request.body);
    const passwordHash = await hashPassword(input.password);
    const created = await guardUnique(emailTaken, () =>
      app.db.transaction(async (tx) => {
        const [row] = await tx.insert(admins).values({ email: input.email, name: input.name, password_hash: passwordHash }).returning();
        await audit(tx, request, { action: "create", resource: "admins", resourceId: row.id, after: row });
        return row;
      }),
    );
    return reply.status(201).send(adminRow(created));
  });

  app.get("/admin/admins/:id", { onRequest: requireAdmin }, async (request) => {
    const id = rowId((request.params as { id: string }).id, "Admin");
    const [row] = await app.db.select().from(admins).where(eq(admins.id, id));
    if (!row) throw notFound("Admin not found.");
    return adminRow(row);
  });

  app.patch("/admin/admins/:id", { onRequest: requireAdmin }, async (request) => {
    const id = rowId((request.params as { id: string }).id, "Admin");
    const patch = parseBody(adminPatchSchema, request.body);
    return guardUnique(emailTaken, () =>
      app.db.transaction(async (tx) => {
        const [before] = await tx.select().from(admins).where(eq(admins.id, id)).for("update");
        if (!before) throw notFound("Admin not found.");
        if (patch.email === undefined && patch.name === undefined) return adminRow(before);
        const [after] = await tx
          .update(admins)
          .set({ ...patch, updated_at: sql`now()` })
          .where(eq(admins.id, id))
          .returning();
        await audit(tx, request, { action: "update", resource: "admins", resourceId: id, before, after });
        return adminRow(after);
      }),
    );
  });

  app.delete("/admin/admins/:id", { onRequest: requireAdmin }, async (request) => {
    const id = rowId((request.params as { id: string }).id, "Admin");
    await app.db.transaction(async (tx) => {
      // Every admin row locked: two admins removing each other at once cannot both succeed.
      const all = await tx.select().from(admins).for("update");
      const target = all.find((a) => a.id === id);
      if (!target) throw notFound("Admin not found.");
      if (all.length <= 1) throw conflict(LAST_ADMIN_MESSAGE);
      // (the foreign key would cascade too; said here so the intent does not hang on the schema)
      await tx.delete(sessions).where(eq(sessions.admin_id, id));
      await tx.delete(admins).where(eq(admins.id, id));
      await audit(tx, request, { action: "delete", resource: "admins", resourceId: id, before: target, after: null });
    });
    return { success: true };
  });

  // Own password: the current one proves it is the admin at the keyboard, not a borrowed
  // browser; success signs the admin out everywhere else.
  app.post("/admin/password", { onRequest: requireAdmin }, async (request, reply) => {
    noStore(reply);
    const me = request.admin!;
    const input = parseBody(passwordChangeSchema, request.body);
    await limitGuesses(app.db, `password:admin:${me.id}`, app.config.LOGIN_LIMIT_PER_MIN, LOGIN_LIMIT_MESSAGE);
    const [row] = await app.db.select().from(admins).where(eq(admins.id, me.id));
    if (!row || !(await verifyPassword(input.currentPassword, row.password_hash))) {
      throw badRequest(WRONG_PASSWORD, { currentPassword: WRONG_PASSWORD });
    }
    const passwordHash = await hashPassword(input.newPassword);
    await app.db.transaction(async (tx) => {
      await tx.update(admins).set({ password_hash: passwordHash, updated_at: sql`now()` }).where(eq(admins.id, me.id));
      await tx.delete(sessions).where(and(eq(sessions.admin_id, me.id), ne(sessions.id, me.sessionId)));
      await audit(tx, request, { action: "password", resource: "admins", resourceId: me.id });
    });
    return { success: true };
  });
};

export default routes;
