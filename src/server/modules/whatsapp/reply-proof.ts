// Proof by writing to us (issue 41; docs/architecture.md, "Identity"): a message Meta's signed
// webhook brings from a number, holding a live reply code issued for that very number, proves the
// number for what the code was issued for, through that flow's own path (the trial starts as if
// the code were typed; the contact change is made; the payer's code is marked proved for their
// Pay). A code from another number finds nothing (codes are looked up by the
// sender); a replayed webhook finds the code used; a wrong or expired one changes nothing.
import type { FastifyInstance } from "fastify";
import { AppError } from "@/server/lib/errors";
import { findReplyCode, markReplyProved, replyProof } from "@/server/lib/reply-codes";
import { confirmContactChange } from "@/server/modules/client/contact-change";
import { verifyTrial } from "@/server/modules/trials/service";
import { inboundContent } from "./inbox";
import type { WebhookBody } from "./service";

/** Each inbound text of the webhook that holds a reply code for its sender proves what the code is for. */
export async function proveByReply(app: FastifyInstance, body: WebhookBody, now = new Date()): Promise<number> {
  let proved = 0;
  for (const entry of body.entry) {
    for (const change of entry.changes) {
      if (change.field !== "messages") continue;
      for (const message of change.value.messages ?? []) {
        const { text } = inboundContent(message);
        const row = text ? await findReplyCode(app.db, message.from, text, now) : null;
        if (!row) continue;
        try {
          if (await proveOne(app, row, now)) proved++;
        } catch (failure) {
          // the flow refused (a limit reached, already started): the message stays in the inbox
          if (!(failure instanceof AppError)) throw failure;
          app.log.info({ purpose: row.purpose, code: failure.code }, "A code written to us proved nothing");
        }
      }
    }
  }
  return proved;
}

async function proveOne(app: FastifyInstance, row: NonNullable<Awaited<ReturnType<typeof findReplyCode>>>, now: Date): Promise<boolean> {
  const proof = replyProof(row.id, now);
  if (row.purpose === "reply:trial" && row.payload.trialId) {
    await verifyTrial(app, row.payload.trialId, proof);
    return true;
  }
  if (row.purpose === "reply:contact-change" && row.client_id) {
    await confirmContactChange(app, row.client_id, proof);
    return true;
  }
  // The payer's browser pays with its link's code once this has proved it (payments' resolvePayer).
  if (row.purpose === "reply:payment-identify") return markReplyProved(app.db, row.id, now);
  return false;
}
