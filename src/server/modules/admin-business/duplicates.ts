// A flagged possible duplicate (lib/identity.ts): a client made by a payment whose payer gave an
// existing client's number or e-mail address without proving it. The owner decides:
//   POST /api/admin/clients/:id/merge              → the flagged client goes into the one it may be
//   POST /api/admin/clients/:id/dismiss-duplicate  → they are different people; the flag goes
// A merge happens once, in one transaction: payments, invoices, credit notes, leads, messages
// and requests move to the kept client; each of the duplicate's paid payments adds its months to
// the kept client's term through the lifecycle (cause 'merged-in', key merge:<dup>:<payment>),
// so the panel extends the kept line; the kept client's line stays, and the duplicate's line is
// switched off (or, when the kept client has none, moved over with the time it holds); the
// duplicate's term ends ('merged-away') and its row stays, marked merged_into, for the history.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  capturedPayments,
  clients,
  contentRequests,
  couponRedemptions,
  creditNotes,
  invoices,
  leads,
  outbox,
  passwordResetTokens,
  provisioningJobs,
  sessions,
  statusSubscribers,
  verificationCodes,
} from "@/server/db/schema";
import { audit } from "@/server/lib/audit";
import { conflict, notFound, uniqueViolation } from "@/server/lib/errors";
import { adminActor, applyChange, loadRules } from "@/server/lib/lifecycle";
import { appendNote } from "@/server/lib/notes";
import { monthsPaidFor } from "@/server/modules/payments/settle";
import { type PublicClient, type Tx, toPublicClient } from "./client-service";

export const NOT_FLAGGED = "This client is not flagged as a possible duplicate.";
export const ALREADY_MERGED = "This client was already merged.";

type ClientRow = typeof clients.$inferSelect;

async function lockFlagged(tx: Tx, id: string): Promise<{ dup: ClientRow; keep: ClientRow }> {
  // A second merge or dismiss of the same client waits here, holding nothing, until the first
  // commits: waiting on the row lock instead queued it on the client's row, which the first
  // then needed again while moving rows that point at it, and PostgreSQL saw a deadlock.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`duplicate:${id}`}))`);
  const [dup] = await tx.select().from(clients).where(eq(clients.id, id)).for("no key update");
  if (!dup) throw notFound("No client with that id.");
  if (dup.merged_into) throw conflict(ALREADY_MERGED);
  if (!dup.possible_duplicate_of) throw conflict(NOT_FLAGGED);
  const [keep] = await tx.select().from(clients).where(eq(clients.id, dup.possible_duplicate_of)).for("no key update");
  if (!keep || keep.merged_into)
    throw conflict("The client this one may be no longer exists or was merged itself. Dismiss the flag instead.");
  return { dup, keep };
}

/** Merges the flagged client `id` into the client it may be. A second merge is a 409. */
export async function mergeDuplicate(
  app: FastifyInstance,
  request: FastifyRequest,
  id: string,
): Promise<{ kept: PublicClient; merged: PublicClient }> {
  const rules = await loadRules(app);
  const actor = adminActor(request);
  const result = await app.db.transaction(async (tx) => {
    const { dup, keep } = await lockFlagged(tx, id);
    const now = new Date();
    const moved = (ids: { id: string }[]) => ids.length;

    // The line: the kept client's stays; with none, the duplicate's moves over with its time.
    const lineMoved = keep.panel_line_id === null && !keep.line_username && (dup.panel_line_id !== null || dup.line_username !== "");
    if (lineMoved) {
      await tx
        .update(clients)
        .set({
          panel_line_id: dup.panel_line_id,
          line_username: dup.line_username,
          line_password: dup.line_password,
          line_portal_url: dup.line_portal_url,
          line_expires_at: dup.line_expires_at,
          line_enabled: dup.line_enabled,
          line_is_test: dup.line_is_test,
          updated_at: now,
        })
        .where(eq(clients.id, keep.id));
      await tx
        .update(clients)
        .set({ panel_line_id: null, line_username: "", line_password: "", line_portal_url: "", line_expires_at: null, updated_at: now })
        .where(eq(clients.id, dup.id));
    }
    // What the panel was still to do for the duplicate is not needed any more.
    await tx
      .update(provisioningJobs)
      .set({ status: "done", done_at: now, instruction: `Not needed: the client was merged into ${keep.username}.`, updated_at: now })
      .where(and(eq(provisioningJobs.client_id, dup.id), inArray(provisioningJobs.status, ["pending", "failed", "task"])));

    // The term: the duplicate's paid payments, each once, through the lifecycle.
    const paid = await tx
      .select()
      .from(capturedPayments)
      .where(and(eq(capturedPayments.client_id, dup.id), eq(capturedPayments.status, "paid")));
    let monthsMoved = 0;
    for (const payment of paid) {
      const months = await monthsPaidFor(tx, payment);
      if (months <= 0) continue;
      const change = await applyChange(tx, {
        clientId: keep.id,
        cause: { kind: "merged-in", months, lineMoved },
        causeKey: `merge:${dup.id}:${payment.id}`,
        actor,
        rules,
        now,
        reason: `Merged from ${dup.full_name} (${dup.username}): payment ${payment.external_transaction_id}`,
        package: { id: payment.package_id, name: payment.package_name },
      });
      if (change.applied) monthsMoved += months;
    }
    await applyChange(tx, {
      clientId: dup.id,
      cause: { kind: "merged-away" },
      causeKey: `merged-away:${dup.id}`,
      actor,
      rules,
      now,
      reason: `Merged into ${keep.full_name} (${keep.username})`,
    });

    // Money, documents, messages and requests follow the person.
    const counts = {
      payments: moved(
        await tx
          .update(capturedPayments)
          .set({ client_id: keep.id, updated_at: now })
          .where(eq(capturedPayments.client_id, dup.id))
          .returning({ id: capturedPayments.id }),
      ),
      invoices: moved(
        await tx.update(invoices).set({ client_id: keep.id }).where(eq(invoices.client_id, dup.id)).returning({ id: invoices.id }),
      ),
      credit_notes: moved(
        await tx.update(creditNotes).set({ client_id: keep.id }).where(eq(creditNotes.client_id, dup.id)).returning({ id: creditNotes.id }),
      ),
      leads: moved(
        await tx
          .update(leads)
          .set({ client_id: keep.id, possible_duplicate_of: null, updated_at: now })
          .where(eq(leads.client_id, dup.id))
          .returning({ id: leads.id }),
      ),
      messages: moved(await tx.update(outbox).set({ client_id: keep.id }).where(eq(outbox.client_id, dup.id)).returning({ id: outbox.id })),
      requests: moved(
        await tx
          .update(contentRequests)
          .set({ client_id: keep.id })
          .where(eq(contentRequests.client_id, dup.id))
          .returning({ id: contentRequests.id }),
      ),
    };
    await tx
      .update(couponRedemptions)
      .set({ customer_key: `client:${keep.id}` })
      .where(eq(couponRedemptions.customer_key, `client:${dup.id}`));
    // The duplicate can no longer sign in or be written to as a customer.
    await tx.delete(sessions).where(eq(sessions.client_id, dup.id));
    await tx.delete(passwordResetTokens).where(eq(passwordResetTokens.client_id, dup.id));
    await tx.delete(verificationCodes).where(eq(verificationCodes.client_id, dup.id));
    await tx.delete(statusSubscribers).where(eq(statusSubscribers.client_id, dup.id));

    const [merged] = await tx
      .update(clients)
      .set({ merged_into: keep.id, possible_duplicate_of: null, marketing_opt_in: false, updated_at: now })
      .where(and(eq(clients.id, dup.id), isNull(clients.merged_into)))
      .returning();
    const [kept] = await tx
      .update(clients)
      .set({
        email: keep.email || dup.email,
        notes: appendNote(
          clients.notes,
          `Merged ${dup.full_name} (${dup.username}) into this client on ${now.toISOString().slice(0, 10)}.`,
        ),
        updated_at: now,
      })
      .where(eq(clients.id, keep.id))
      .returning();
    await audit(tx, request, {
      action: "merge",
      resource: "clients",
      resourceId: keep.id,
      before: { kept: keep.id, merged: dup.id, merged_username: dup.username },
      after: { ...counts, months_moved: monthsMoved, line_moved: lineMoved },
    });
    return { kept, merged };
  });
  // The panel work queued here reaches the provisioning worker through the change feed.
  app.outbox.nudge();
  return { kept: toPublicClient(result.kept), merged: toPublicClient(result.merged) };
}

/** They are different people: the flag goes (audited). A number both hold must be changed on one first (409). */
export async function dismissDuplicate(app: FastifyInstance, request: FastifyRequest, id: string): Promise<PublicClient> {
  try {
    const client = await app.db.transaction(async (tx) => {
      const { dup, keep } = await lockFlagged(tx, id);
      const [after] = await tx
        .update(clients)
        .set({ possible_duplicate_of: null, updated_at: new Date() })
        .where(eq(clients.id, dup.id))
        .returning();
      await audit(tx, request, {
        action: "dismiss-duplicate",
        resource: "clients",
        resourceId: dup.id,
        before: { possible_duplicate_of: keep.id },
        after: { possible_duplicate_of: null },
      });
      return after;
    });
    return toPublicClient(client);
  } catch (error) {
    if (uniqueViolation(error) === "clients_whatsapp_unique") {
      const message =
        "Both clients have the same WhatsApp number, and a number belongs to one client. Change the number on one of them first, or merge them.";
      throw conflict(message, { whatsapp: message });
    }
    throw error;
  }
}
