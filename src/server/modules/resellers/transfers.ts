// Credits moved between the owner and a partner, each exactly once (issue 45 item 2).
// The ledger row is the claim: it is inserted under its unique request_key (the partner and the
// request's Idempotency-Key) before adjust_credits is sent. The request that inserted it sends;
// a replay, or a request with the same key at the same moment on any process, finds the row and
// answers its outcome once it has one. No lock is held across the panel's call.
// Balances before and after are read from the panel itself (never a cache), one transfer at a
// time in a process, so each row's numbers are the transfer's own. A transfer that would take the
// owner or the partner below 0 is refused before anything is sent (409 with the balance); the
// panel refusing the same way is answered alike. An answer lost on the way (timeout, 5xx) is
// settled by reading the partner's balance: moved by exactly the transfer, it happened.
import { and, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { MAYBE_DONE_STATUSES, PanelError } from "@/server/adapters/panel/panel";
import { resellerCreditTransfers } from "@/server/db/schema";
import { AppError, conflict } from "@/server/lib/errors";
import type { CreditTransfer } from "@/shared/reseller-schemas";
import { type Actor, auditAs, fresh, panelFailure, panelUser, type Reseller, resellerPanel, toTransfer } from "./service";

type TransferRow = typeof resellerCreditTransfers.$inferSelect;

/** How long a request waits for another one holding the same key to finish. */
const WAIT_FOR_CLAIM_MS = 20_000;
/**
 * A claim still pending this long after it was made belongs to a process that stopped mid-call
 * (every panel call gives up well before): whether the panel moved the credits is not known, so
 * the row becomes `unknown` for the owner to check, never sent again by itself.
 */
const STALE_CLAIM_MS = 2 * 60_000;

// One transfer at a time per app (process): the before/after reads belong to one transfer.
const queues = new WeakMap<FastifyInstance, Promise<unknown>>();
function oneAtATime<T>(app: FastifyInstance, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(app) ?? Promise.resolve();
  const next = previous.then(work, work);
  queues.set(
    app,
    next.catch(() => {}),
  );
  return next;
}

export interface TransferRequest {
  /** to the partner; negative: taken back to the owner */
  credits: number;
  note: string;
  /** owner-give | owner-take | line:<id> | line-refund:<id> */
  cause?: string;
  /** the request's Idempotency-Key (or one the caller derives) */
  key: string;
}

/** What a refusal says: the balance that is short, in the owner's or the partner's words. */
function refusal(row: TransferRow, reseller: Reseller): AppError {
  const giving = row.credits > 0;
  const message = giving
    ? `You have ${row.owner_before ?? 0} credit${row.owner_before === 1 ? "" : "s"} on the panel, so you cannot give ${row.credits}. Nothing was moved.`
    : `${reseller.name} has ${row.partner_before ?? 0} credit${row.partner_before === 1 ? "" : "s"}, so you cannot take back ${-row.credits}. Nothing was moved.`;
  return new AppError(409, "insufficient_credits", message, {
    credits: message,
    balance: String(giving ? (row.owner_before ?? 0) : (row.partner_before ?? 0)),
  });
}

/**
 * Moves credits once for `request.key`. Answers the ledger row and whether this request moved
 * them (false: an earlier request with the same key did, and this one answers its outcome).
 */
export async function transferCredits(
  app: FastifyInstance,
  actor: Actor,
  reseller: Reseller,
  request: TransferRequest,
): Promise<{ transfer: CreditTransfer; replayed: boolean }> {
  if (!reseller.panel_user_id) throw conflict(`${reseller.name}'s account is not on the panel yet. Add them again to finish it.`);
  resellerPanel(app); // a panel without sub-resellers (manual mode) is a 409 before any row is claimed
  const requestKey = `${reseller.id}:${request.key}`;
  const cause = request.cause ?? (request.credits > 0 ? "owner-give" : "owner-take");
  const [claimed] = await app.db
    .insert(resellerCreditTransfers)
    .values({
      reseller_id: reseller.id,
      request_key: requestKey,
      credits: request.credits,
      note: request.note,
      cause,
      actor: actorOf(actor),
    })
    .onConflictDoNothing({ target: resellerCreditTransfers.request_key })
    .returning();
  if (claimed) return { transfer: await oneAtATime(app, () => carryOut(app, actor, reseller, claimed)), replayed: false };

  // The key is taken: the same transfer, asked again (or at the same moment).
  let earlier = await outcomeOf(app, requestKey);
  if (earlier.status === "pending" && Date.now() - earlier.created_at.getTime() > STALE_CLAIM_MS) {
    const [given] = await app.db
      .update(resellerCreditTransfers)
      .set({ status: "unknown", error: "The process sending this transfer stopped before the panel answered.", done_at: new Date() })
      .where(and(eq(resellerCreditTransfers.id, earlier.id), eq(resellerCreditTransfers.status, "pending")))
      .returning();
    earlier = given ?? (await outcomeOf(app, requestKey));
  }
  if (earlier.credits !== request.credits) {
    throw conflict("That Idempotency-Key was used for another transfer. Send a new key for a new transfer.");
  }
  if (earlier.status === "failed") {
    // Nothing moved last time: the same key may try again, once, whoever claims it first.
    const [again] = await app.db
      .update(resellerCreditTransfers)
      .set({ status: "pending", error: "" })
      .where(and(eq(resellerCreditTransfers.id, earlier.id), eq(resellerCreditTransfers.status, "failed")))
      .returning();
    if (again) return { transfer: await oneAtATime(app, () => carryOut(app, actor, reseller, again)), replayed: false };
    return answerOf(await outcomeOf(app, requestKey), reseller, true);
  }
  return answerOf(earlier, reseller, true);
}

const actorOf = (actor: Actor) => (actor.kind === "admin" ? actor.email : `partner:${actor.username}`);

function answerOf(row: TransferRow, reseller: Reseller, replayed: boolean): { transfer: CreditTransfer; replayed: boolean } {
  if (row.status === "refused") throw refusal(row, reseller);
  if (row.status === "failed")
    throw new AppError(502, "panel_unavailable", row.error || "The panel could not be reached. Please try again.");
  if (row.status === "unknown") {
    throw new AppError(
      409,
      "transfer_unknown",
      "The panel took this transfer but its answer was lost, and the balance could not be read. Check the partner's credits on the panel before sending it again.",
    );
  }
  if (row.status === "pending") {
    throw new AppError(
      409,
      "transfer_in_progress",
      "This transfer is still being made on the panel. Ask again in a moment: it will not be made twice.",
    );
  }
  return { transfer: toTransfer(row), replayed };
}

/** The row once it is no longer pending (or as it stands after WAIT_FOR_CLAIM_MS). */
async function outcomeOf(app: FastifyInstance, requestKey: string): Promise<TransferRow> {
  const until = Date.now() + WAIT_FOR_CLAIM_MS;
  for (;;) {
    const [row] = await app.db.select().from(resellerCreditTransfers).where(eq(resellerCreditTransfers.request_key, requestKey));
    if (row.status !== "pending" || Date.now() > until || Date.now() - row.created_at.getTime() > STALE_CLAIM_MS) return row;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The claimed row carried out: balances read, refused or sent, its outcome written and audited. */
async function carryOut(app: FastifyInstance, actor: Actor, reseller: Reseller, row: TransferRow): Promise<CreditTransfer> {
  const panel = resellerPanel(app);
  const panelId = reseller.panel_user_id as string;
  const finish = async (patch: Partial<TransferRow>) => {
    const [saved] = await app.db.transaction(async (tx) => {
      const written = await tx
        .update(resellerCreditTransfers)
        .set({ ...patch, done_at: new Date() })
        .where(eq(resellerCreditTransfers.id, row.id))
        .returning();
      await auditAs(tx, actor, {
        action: `credits-${patch.status}`,
        resource: "reseller",
        resourceId: reseller.id,
        after: { transfer: row.id, credits: row.credits, note: row.note, cause: row.cause, ...patch },
      });
      return written;
    });
    return saved;
  };
  const balances = async () => {
    const [partner, owner] = await Promise.all([panelUser(app, panelId), fresh(app).userInfo()]);
    if (!partner) throw new AppError(409, "not_on_panel", `${reseller.name} is not among your sub-resellers on the panel any more.`);
    return { partner: partner.credits, owner: owner.credits };
  };

  let before: { partner: number; owner: number | null };
  try {
    before = await balances();
  } catch (error) {
    const failed = await finish({ status: "failed", error: errorText(error) });
    throw failure(error, failed);
  }
  const short = row.credits > 0 ? before.owner !== null && before.owner < row.credits : before.partner + row.credits < 0;
  if (short) {
    const refused = await finish({
      status: "refused",
      partner_before: before.partner,
      owner_before: before.owner,
      error: "not enough credits",
    });
    throw refusal(refused, reseller);
  }

  // Kept before the call, so a claim whose process stops mid-call still shows where it started.
  await app.db
    .update(resellerCreditTransfers)
    .set({ partner_before: before.partner, owner_before: before.owner })
    .where(eq(resellerCreditTransfers.id, row.id));
  try {
    await panel.adjustCredits({ id: panelId, credits: row.credits, note: row.note || row.cause });
  } catch (error) {
    if (error instanceof PanelError && error.status === "STATUS_INSUFFICIENT_CREDITS") {
      const now = await balances().catch(() => before);
      const refused = await finish({ status: "refused", partner_before: now.partner, owner_before: now.owner, error: error.status });
      throw refusal(refused, reseller);
    }
    const ambiguous = error instanceof PanelError && MAYBE_DONE_STATUSES.has(error.status);
    const after = ambiguous ? await balances().catch(() => null) : null;
    if (ambiguous && !after) {
      // Sent, answer lost, and the balance cannot be read: whether it moved is not known. Never sent again on its own.
      const unknown = await finish({
        status: "unknown",
        partner_before: before.partner,
        owner_before: before.owner,
        error: errorText(error),
      });
      throw failure(error, unknown);
    }
    // Moved by exactly this transfer: the panel did it and only the answer was lost.
    if (!after || after.partner !== before.partner + row.credits) {
      const failed = await finish({
        status: "failed",
        partner_before: before.partner,
        owner_before: before.owner,
        error: errorText(error),
      });
      throw failure(error, failed);
    }
    return toTransfer(await finish(doneWith(before, after)));
  }
  const after = await balances().catch(() => ({
    partner: before.partner + row.credits,
    owner: before.owner === null ? null : before.owner - row.credits,
  }));
  return toTransfer(await finish(doneWith(before, after)));
}

const doneWith = (before: { partner: number; owner: number | null }, after: { partner: number; owner: number | null }) => ({
  status: "done",
  partner_before: before.partner,
  partner_after: after.partner,
  owner_before: before.owner,
  owner_after: after.owner,
  error: "",
});

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

function failure(error: unknown, row: TransferRow): AppError {
  if (error instanceof AppError) return error;
  const mapped = panelFailure(error);
  return mapped.statusCode === 502 ? new AppError(502, mapped.code, row.error || mapped.message) : mapped;
}
