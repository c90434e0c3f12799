// The one-tap pay link's page and its tap (issue 27 item 4; token.ts says what a token is).
// Reading a link changes nothing (WhatsApp and mail clients fetch links for their previews). A tap
// starts the payment through the portal renewal's own path (client/payments.ts `startRenewal`),
// for the link's client and package. One payment per cause: the tap claims the client's
// `pay_link_starts` row for that package and way to pay (a row lock for the claim only, never held
// across the provider's call), so a double tap, a retry or a tap on another process answers the
// payment already started while it is pending, instead of starting another; a failed start
// gives the claim back.
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { capturedPayments, clients, payLinkStarts } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { AppError, conflict } from "@/server/lib/errors";
import { startRenewal } from "@/server/modules/client/payments";
import type { PaymentsService } from "@/server/modules/payments/service";
import { SUSPENDED_PAYMENT_MESSAGE } from "@/shared/client-schemas";
import { addMonths } from "@/shared/dates";
import { PAY_LINK_MESSAGES, type PayLinkPayRequest, type PayLinkPayResponse, type PayLinkView } from "@/shared/pay-link-schemas";
import { type PayLinkClaims, payLinkKey, verifyPayLink } from "./token";

/** A pending payment a pay link started is given again for this long; after it, a tap starts a new one. */
export const REUSE_PENDING_MS = 30 * 60_000;
/** A claim older than this is taken over (its process died, or the provider never answered). */
const CLAIM_STALE_MS = 60_000;
/** How long a tap waits for another process's start of the same payment before a 409. */
const WAIT_FOR_OTHER_MS = 20_000;
const WAIT_STEP_MS = 150;

const BUSY_MESSAGE = "Your payment is being started. Please wait a moment and try again.";

type ClientRow = typeof clients.$inferSelect;

/** The link's client, alive and not merged away; else 410 (400 for a link that is not ours, 410 for an expired one). */
async function linkedClient(app: FastifyInstance, token: string): Promise<{ claims: PayLinkClaims; client: ClientRow }> {
  const check = verifyPayLink(await payLinkKey(app.db), token);
  if (!check.ok) {
    if (check.reason === "expired") throw new AppError(410, "expired", PAY_LINK_MESSAGES.expired);
    throw new AppError(400, "invalid_link", PAY_LINK_MESSAGES.invalid);
  }
  const [client] = await app.db.select().from(clients).where(eq(clients.id, check.claims.clientId)).limit(1);
  if (!client || client.merged_into) throw new AppError(410, "gone", PAY_LINK_MESSAGES.gone);
  if (client.status === "suspended") throw new AppError(409, "suspended", SUSPENDED_PAYMENT_MESSAGE);
  return { claims: check.claims, client };
}

/** The package's price today as the payment would charge it; 410 when it is no longer on sale. */
async function priceOf(payments: PaymentsService, packageId: string) {
  try {
    return await payments.priceOf(packageId);
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 400) throw new AppError(410, "package_gone", PAY_LINK_MESSAGES.packageGone);
    throw error;
  }
}

function firstName(fullName: string): string {
  return fullName.trim().split(/\s+/)[0] ?? "";
}

/** GET /api/pay-links/:token: reads only. */
export async function viewPayLink(app: FastifyInstance, payments: PaymentsService, token: string): Promise<PayLinkView> {
  const { claims, client } = await linkedClient(app, token);
  const [{ pkg, price }, business, methods] = await Promise.all([
    priceOf(payments, claims.packageId),
    loadBusiness(app),
    payments.methods(),
  ]);
  // The lifecycle adds paid time to a term that runs (active, grace, trial), else counts it from now.
  const now = new Date();
  const running = RUNNING.has(client.status) && client.subscription_end !== null && client.subscription_end > now;
  const from = running && client.subscription_end ? client.subscription_end : now;
  return {
    business: business.companyName,
    firstName: firstName(client.full_name),
    packageName: pkg.name,
    price,
    listPrice: price < pkg.price ? pkg.price : null,
    methods,
    expiresAt: claims.expiresAt.toISOString(),
    term: {
      running,
      endsAt: client.subscription_end?.toISOString() ?? null,
      newEnd: addMonths(from, Math.max(1, pkg.duration_months)).toISOString(),
    },
  };
}

/** Statuses whose term runs: paid time is added to its end. */
const RUNNING: ReadonlySet<string> = new Set(["active", "grace", "trial"]);

/** One payment per client, package and way to pay at a time. */
export const causeKey = (clientId: string, packageId: string, method: string) => `${clientId}:${packageId}:${method}`;

type Claim = { kind: "mine"; claim: string } | { kind: "answer"; answer: PayLinkPayResponse } | { kind: "busy" };

/** Takes the row for this cause, or finds the pending payment a tap before started. */
async function claimStart(app: FastifyInstance, key: string, clientId: string, method: string): Promise<Claim> {
  const claim = randomUUID();
  return app.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(payLinkStarts)
      .values({ key, client_id: clientId, claim, state: "starting" })
      .onConflictDoNothing({ target: payLinkStarts.key })
      .returning({ claim: payLinkStarts.claim });
    if (inserted) return { kind: "mine", claim };
    const [row] = await tx.select().from(payLinkStarts).where(eq(payLinkStarts.key, key)).for("update");
    if (!row) return { kind: "busy" };
    const age = Date.now() - row.updated_at.getTime();
    if (row.state === "starting" && age < CLAIM_STALE_MS) return { kind: "busy" };
    // EFT is asked again each time: its path answers the open reference itself, with today's bank details.
    if (row.state === "ready" && method !== "eft" && row.answer && row.payment_ref && age < REUSE_PENDING_MS) {
      const [pending] = await tx
        .select({ id: capturedPayments.id })
        .from(capturedPayments)
        .where(and(eq(capturedPayments.external_transaction_id, row.payment_ref), eq(capturedPayments.status, "pending")));
      if (pending) return { kind: "answer", answer: row.answer as unknown as PayLinkPayResponse };
    }
    await tx
      .update(payLinkStarts)
      .set({ claim, state: "starting", answer: null, payment_ref: null, updated_at: sql`now()` })
      .where(eq(payLinkStarts.key, key));
    return { kind: "mine", claim };
  });
}

/** In this process, taps on the same cause share one start (the database row covers the others). */
const inFlight = new Map<string, Promise<PayLinkPayResponse>>();

/** POST /api/pay-links/:token/pay {method}: the renewal's payment for the link's client and package. */
export async function payByLink(
  app: FastifyInstance,
  payments: PaymentsService,
  token: string,
  input: PayLinkPayRequest,
  ip: string,
): Promise<PayLinkPayResponse> {
  const { claims, client } = await linkedClient(app, token);
  await priceOf(payments, claims.packageId);
  const key = causeKey(client.id, claims.packageId, input.method);
  const running = inFlight.get(key);
  if (running) return running;
  const started = startPayment(app, payments, key, client, claims.packageId, input, ip).finally(() => inFlight.delete(key));
  inFlight.set(key, started);
  return started;
}

/**
 * Starts the payment for one cause under its database claim, or answers the one a tap before
 * started: what taps on different processes share (payByLink adds this process's own sharing).
 */
export async function startPayment(
  app: FastifyInstance,
  payments: PaymentsService,
  key: string,
  client: ClientRow,
  packageId: string,
  input: PayLinkPayRequest,
  ip: string,
): Promise<PayLinkPayResponse> {
  const until = Date.now() + WAIT_FOR_OTHER_MS;
  for (;;) {
    const taken = await claimStart(app, key, client.id, input.method);
    if (taken.kind === "answer") return taken.answer;
    if (taken.kind === "mine") {
      const mine = and(eq(payLinkStarts.key, key), eq(payLinkStarts.claim, taken.claim));
      try {
        const answer = await startRenewal(payments, client, { packageId, method: input.method }, ip);
        const ref = answer.method === "eft" ? answer.reference : answer.externalTransactionID;
        await app.db
          .update(payLinkStarts)
          .set({ state: "ready", payment_ref: ref, answer: answer as unknown as Record<string, unknown>, updated_at: sql`now()` })
          .where(mine);
        return answer;
      } catch (error) {
        // Nothing was started (or it failed at the provider, marked failed there): the next tap may try again.
        await app.db.delete(payLinkStarts).where(mine);
        throw error;
      }
    }
    if (Date.now() >= until) throw conflict(BUSY_MESSAGE);
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
}
