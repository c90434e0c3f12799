// The signed-in client's own account:
//   GET   /api/client/me        → {data: profile with the computed subscription and line details}
//   PATCH /api/client/me        → name, channel and marketing choice; a contact only cleared (a new one: contact-change.ts)
//   POST  /api/client/password  → {currentPassword, newPassword}; the OTHER sessions end
// Every query is by the session's client id; ids in the body are stripped by the schemas.
import { and, eq, ne } from "drizzle-orm";
import type { FastifyPluginAsync } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireClient } from "@/server/auth/guards";
import { hashPassword, verifyPassword } from "@/server/auth/passwords";
import { clients, sessions } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { emailOf, whatsappOf } from "@/server/lib/contact";
import { badRequest } from "@/server/lib/errors";
import { limitGuesses } from "@/server/lib/rate-limit";
import { type ClientProfile, CONTACT_CHANGE_NEEDS_CODE, passwordChangeSchema, profilePatchSchema } from "@/shared/client-schemas";
import { toStoredWhatsApp } from "@/shared/whatsapp";
import { loadOwnClient, loadProfile, parseBody, queuePasswordChanged, signedInId } from "./service";

const WRONG_PASSWORD = "Your current password is not correct";

const routes: FastifyPluginAsync = async (fastify) => {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get("/client/me", { preHandler: requireClient }, async (request): Promise<{ data: ClientProfile }> => {
    return { data: await loadProfile(app, await loadOwnClient(app, request)) };
  });

  app.patch("/client/me", { preHandler: requireClient }, async (request): Promise<{ data: ClientProfile }> => {
    const patch = parseBody(profilePatchSchema, request.body);
    const current = await loadOwnClient(app, request);
    // A new number or address is proven with a code first (POST /api/client/contact-change);
    // here it may only stay as it is (in any form) or be cleared.
    const whatsapp = patch.whatsapp === undefined ? undefined : patch.whatsapp === "" ? "" : toStoredWhatsApp(patch.whatsapp);
    if (whatsapp && whatsapp !== whatsappOf(current)) {
      throw badRequest(CONTACT_CHANGE_NEEDS_CODE.whatsapp, { whatsapp: CONTACT_CHANGE_NEEDS_CODE.whatsapp });
    }
    const email = patch.email === undefined ? undefined : patch.email.trim();
    if (email && email.toLowerCase() !== (emailOf(current) ?? "")) {
      throw badRequest(CONTACT_CHANGE_NEEDS_CODE.email, { email: CONTACT_CHANGE_NEEDS_CODE.email });
    }
    const next = {
      email: email === undefined ? current.email : email === "" ? "" : current.email,
      whatsapp: whatsapp ?? current.whatsapp,
      communication_method: patch.communication_method ?? current.communication_method,
    };
    // The chosen channel needs its contact, or reminders and replies would go nowhere. Checked
    // only when the contact details change, so a name change is never refused over them.
    const touchesContact = patch.email !== undefined || patch.whatsapp !== undefined || patch.communication_method !== undefined;
    if (touchesContact && next.communication_method === "email" && !next.email) {
      throw badRequest("Please enter your e-mail address to get messages by e-mail", { email: "Please enter your e-mail address" });
    }
    if (touchesContact && next.communication_method === "whatsapp" && !next.whatsapp) {
      throw badRequest("Please enter your WhatsApp number to get messages on WhatsApp", { whatsapp: "Please enter your WhatsApp number" });
    }
    const now = new Date();
    const changes: Partial<typeof clients.$inferInsert> = { ...next, updated_at: now };
    if (patch.full_name !== undefined) changes.full_name = patch.full_name;
    if (patch.marketing_opt_in !== undefined) {
      changes.marketing_opt_in = patch.marketing_opt_in;
      // POPIA: keep when consent was given (an opt-in repeated keeps its first time); withdrawn, it is cleared.
      changes.marketing_opt_in_at = patch.marketing_opt_in ? (current.marketing_opt_in ? current.marketing_opt_in_at : now) : null;
    }
    const [row] = await app.db
      .update(clients)
      .set(changes)
      .where(eq(clients.id, signedInId(request)))
      .returning();
    return { data: await loadProfile(app, row ?? current) };
  });

  app.post("/client/password", { preHandler: requireClient }, async (request) => {
    const clientId = signedInId(request);
    // The current password is a secret a stolen session must not be able to guess at speed.
    await limitGuesses(app.db, `client-password:acct:${clientId}`, app.config.LOGIN_LIMIT_PER_MIN);
    const input = parseBody(passwordChangeSchema, request.body);
    const client = await loadOwnClient(app, request);
    if (!(await verifyPassword(input.currentPassword, client.password_hash))) {
      throw badRequest(WRONG_PASSWORD, { currentPassword: WRONG_PASSWORD });
    }
    const passwordHash = await hashPassword(input.newPassword);
    const business = await loadBusiness(app);
    const now = new Date();
    const sessionId = request.client?.sessionId ?? "";
    await app.db.transaction(async (tx) => {
      await tx.update(clients).set({ password_hash: passwordHash, updated_at: now }).where(eq(clients.id, clientId));
      await tx.delete(sessions).where(and(eq(sessions.client_id, clientId), ne(sessions.id, sessionId)));
      await queuePasswordChanged(tx, business, client, { at: now, signedOut: "other-devices" });
    });
    app.outbox.nudge();
    return { success: true };
  });
};

export default routes;
