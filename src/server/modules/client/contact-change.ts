// A client's own WhatsApp number or e-mail address changes only with proof (issue 24): the new
// contact gets a one-time code (lib/verification.ts), and only that code makes the change.
//   POST /api/client/contact-change          {whatsapp} | {email} → 202 {sentTo, channel}
// A new number also gets a reply code when the Cloud API's signed webhook is set up (issue 41):
// the answer's waLink writes it to us from that number, and that message confirms the change
// (confirmContactChange, from whatsapp/reply-proof.ts). It is the only proof of a new number
// the Cloud API cannot reach with a code now (no approved code template, no message from it
// today): then sentTo is '' and only the link is offered. Without the webhook such a number is
// refused with what works instead (409 on whatsapp), and nothing is issued: a code must never
// wait for a person.
//   POST /api/client/contact-change/confirm  {code}               → 200 {data: profile}
// The old contact is told, in the same transaction as the change. Admin edits stay possible
// (audited, modules/admin-business).
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import { requireClient } from "@/server/auth/guards";
import { clients } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { codeRoute, noCodeRoute } from "@/server/lib/code-route";
import { emailOf, whatsappOf } from "@/server/lib/contact";
import { badRequest, conflict, unauthorized, uniqueViolation } from "@/server/lib/errors";
import { enqueue } from "@/server/lib/outbox";
import { issueReplyCode, replyWebhookReady, typedProof } from "@/server/lib/reply-codes";
import { type CodeCheck, codeRefusal, type Destination, issueCode, maskedDestination, type Tx } from "@/server/lib/verification";
import { type ClientProfile, type ContactChangeStarted, contactChangeConfirmSchema, contactChangeSchema } from "@/shared/client-schemas";
import { CODE_ROUTE_MESSAGES } from "@/shared/schemas";
import { formatPhoneForDisplay, toStoredWhatsApp } from "@/shared/whatsapp";
import { contactChangedMessage } from "./messages";
import { loadOwnClient, loadProfile, parseBody, signedInId } from "./service";

export const NUMBER_ON_ANOTHER_ACCOUNT = "This number is already on another account. Contact us if it is yours.";
const SAME_AS_NOW = "That is already your contact on this account.";

const routes: FastifyPluginAsync = async (app) => {
  app.post("/client/contact-change", { preHandler: requireClient }, async (request, reply): Promise<ContactChangeStarted> => {
    const input = parseBody(contactChangeSchema, request.body);
    const client = await loadOwnClient(app, request);
    let to: Destination;
    if (input.whatsapp !== undefined) {
      const number = toStoredWhatsApp(input.whatsapp) as string;
      if (number === whatsappOf(client)) throw badRequest(SAME_AS_NOW, { whatsapp: SAME_AS_NOW });
      // Another client's number is answered like any (issue 46: who is a customer is not public):
      // its code goes to that number, so only its holder can get as far as the confirm, which
      // refuses it there (the one-number-per-client index).
      to = { channel: "whatsapp", recipient: number };
    } else {
      const email = (input.email as string).trim().toLowerCase();
      if (email === emailOf(client)) throw badRequest(SAME_AS_NOW, { email: SAME_AS_NOW });
      to = { channel: "email", recipient: email };
    }
    const cloudApi = app.outbox.cloudApi;
    const business = await loadBusiness(app);
    let routed = (await codeRoute(app.db, [to], app.outbox.codeTransports)).length > 0;
    const byReply = to.channel === "whatsapp" && replyWebhookReady(app.config) && Boolean(business.whatsappNumber);
    if (!routed && to.channel === "email") throw noCodeRoute(CODE_ROUTE_MESSAGES.emailOff, "email");
    const noRoute = () => noCodeRoute(cloudApi ? CODE_ROUTE_MESSAGES.whatsappWindow : CODE_ROUTE_MESSAGES.whatsappOff, "whatsapp");
    if (!routed && !byReply) throw noRoute();
    if (routed) {
      const outcome = await issueCode(app.db, business, {
        purpose: "contact-change",
        to: [to],
        clientId: client.id,
        requester: `client:${client.id}`,
        payload: { [to.channel]: to.recipient },
        name: client.full_name,
      });
      // the day's WhatsApp cap filled meanwhile: nothing went, so the answer does not say it did
      routed = outcome !== "capped";
      if (!routed && !byReply) throw noRoute();
      app.outbox.nudge();
    }
    const waLink = byReply
      ? await issueReplyCode(app.db, business, true, {
          purpose: "contact-change",
          number: to.recipient,
          clientId: client.id,
          requester: `client:${client.id}`,
          payload: { whatsapp: to.recipient },
        })
      : null;
    reply.code(202);
    return { sentTo: routed ? maskedDestination(to) : "", channel: to.channel, ...(waLink ? { waLink } : {}) };
  });

  app.post("/client/contact-change/confirm", { preHandler: requireClient }, async (request): Promise<{ data: ClientProfile }> => {
    const { code } = parseBody(contactChangeConfirmSchema, request.body);
    const clientId = signedInId(request);
    const row = await confirmContactChange(app, clientId, typedProof({ clientId }, "contact-change", code));
    return { data: await loadProfile(app, row) };
  });
};

/**
 * Makes the change a proved code holds (typed, or written to us from the new number) and tells
 * the old contact, in one transaction; 400 for a code that did not check out (the wrong try kept).
 */
export async function confirmContactChange(
  app: FastifyInstance,
  clientId: string,
  prove: (tx: Tx) => Promise<CodeCheck>,
): Promise<typeof clients.$inferSelect> {
  const business = await loadBusiness(app);
  const confirm = () =>
    app.db.transaction(async (tx) => {
      const check = await prove(tx);
      if (!check.ok) return { ok: false, check } as const;
      const [before] = await tx.select().from(clients).where(eq(clients.id, clientId)).for("no key update");
      if (!before) throw unauthorized("Please sign in to your client portal.");
      const what = check.row.payload.whatsapp !== undefined ? "whatsapp" : "email";
      const value = what === "whatsapp" ? check.row.payload.whatsapp : check.row.payload.email;
      const now = new Date();
      const [row] = await tx
        .update(clients)
        .set({ [what]: value, updated_at: now })
        .where(eq(clients.id, clientId))
        .returning();
      // The old contact hears of it (an account taken over must not change its contact quietly).
      const old = what === "whatsapp" ? whatsappOf(before) : emailOf(before);
      if (old) {
        const message = contactChangedMessage(business, {
          name: before.full_name,
          username: before.username,
          what,
          to: what === "whatsapp" ? formatPhoneForDisplay(value) : value,
          at: now,
        });
        await enqueue(tx, {
          channel: what,
          recipient: old,
          subject: what === "email" ? message.subject : undefined,
          body: message.body,
          kind: "contact-changed",
          client_id: clientId,
          dedupe_key: `contact-changed:${check.row.id}`,
        });
      }
      return { ok: true, row: row ?? before } as const;
    });
  let result: Awaited<ReturnType<typeof confirm>>;
  try {
    result = await confirm();
  } catch (error) {
    if (uniqueViolation(error) === "clients_whatsapp_unique") {
      throw conflict(NUMBER_ON_ANOTHER_ACCOUNT, { code: NUMBER_ON_ANOTHER_ACCOUNT });
    }
    throw error;
  }
  if (!result.ok) throw codeRefusal(result.check);
  app.outbox.nudge();
  return result.row;
}

export default routes;
