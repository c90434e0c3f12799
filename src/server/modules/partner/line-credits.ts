// What a partner's line costs them, moved the same way for a new line (lines.ts) and a renewal
// (line-actions.ts). The owner's reseller is who the panel charges, so the cost is first moved
// back from the partner to the owner (a ledger transfer, cause and key line:<cause>); when the
// panel then refuses, it goes back to the partner as its own transfer (line-refund:<cause>).
// A request that finds its claim taken by the same request waits for that one to settle.
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { resellers } from "@/server/db/schema";
import { AppError } from "@/server/lib/errors";
import { type Actor, panelUser, type Reseller } from "@/server/modules/resellers/service";
import { transferCredits } from "@/server/modules/resellers/transfers";

const WAIT_FOR_CLAIM_MS = 20_000;

export const partnerId = (request: FastifyRequest) => request.partner?.id ?? "";

/** The signed-in partner, who must be on the panel to sell or renew a line. */
export async function partnerOnPanel(app: FastifyInstance, request: FastifyRequest): Promise<Reseller & { panel_user_id: string }> {
  const [partner] = await app.db
    .select()
    .from(resellers)
    .where(eq(resellers.id, partnerId(request)));
  if (!partner.panel_user_id)
    throw new AppError(409, "not_on_panel", "Your account is not on the panel yet. Ask the business to finish it.");
  return { ...partner, panel_user_id: partner.panel_user_id };
}

const tooFew = (need: number, have: number) =>
  new AppError(409, "insufficient_credits", `You need ${need} credit${need === 1 ? "" : "s"}; you have ${have} — buy credits`, {
    credits: String(have),
  });

interface LineCost {
  credits: number;
  /** the ledger's note */
  note: string;
  /** what the transfer is keyed on: line:<cause> */
  cause: string;
}

/**
 * Takes the cost back from the partner to the owner. Too few credits is said before anything is
 * moved; when it is refused, `forget` drops the claimed row first, so the request may be sent again.
 */
export async function chargeLine(
  app: FastifyInstance,
  actor: Actor,
  partner: Reseller & { panel_user_id: string },
  cost: LineCost,
  forget: () => Promise<unknown>,
): Promise<void> {
  const balance = (await panelUser(app, partner.panel_user_id).catch(() => null))?.credits ?? null;
  if (balance !== null && balance < cost.credits) {
    await forget();
    throw tooFew(cost.credits, balance);
  }
  if (cost.credits <= 0) return;
  try {
    await transferCredits(app, actor, partner, {
      credits: -cost.credits,
      note: cost.note,
      cause: `line:${cost.cause}`,
      key: `line:${cost.cause}`,
    });
  } catch (error) {
    await forget();
    if (error instanceof AppError && error.code === "insufficient_credits") throw tooFew(cost.credits, Number(error.fields?.balance ?? 0));
    throw error;
  }
}

/** Gives the cost back to the partner, as its own transfer (once, keyed line-refund:<cause>). */
export async function refundLine(app: FastifyInstance, actor: Actor, partner: Reseller, cost: LineCost): Promise<void> {
  if (cost.credits <= 0) return;
  await transferCredits(app, actor, partner, {
    credits: cost.credits,
    note: cost.note,
    cause: `line-refund:${cost.cause}`,
    key: `line-refund:${cost.cause}`,
  });
}

/** The claimed row `read` answers, once it is no longer pending (or the wait for it is over). */
export async function onceSettled<T extends { status: string }>(read: () => Promise<T | undefined>): Promise<T | undefined> {
  const until = Date.now() + WAIT_FOR_CLAIM_MS;
  for (;;) {
    const row = await read();
    if (row?.status !== "pending" || Date.now() > until) return row;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
