// The limits an instant free trial is held to (issue 27), each a setting with a default and
// each refusal a clear message, counted in trial_refusals for the owner:
//   - no throwaway e-mail address (the maintained list of the disposable-email-domains project,
//     from npm's disposable-email-domains-js, not a list of ours);
//   - per network (/24 IPv4, /48 IPv6) a day (default 2): trials from it started today;
//   - per shop a day (default 50): trials started today.
// Both count trials started (their code entered), never requests: a request whose code did not
// arrive uses up nothing. Asking for codes has its own limits, per hour (lib/verification.ts:
// per network as the requester, and per person, which is per number, one trial each).
// One trial per WhatsApp number and per mailbox (the address as shared/contact.ts mailboxKey reads
// it: a.b+1@gmail.com is ab@gmail.com), and none on blackout days, are the order's own rules
// (orders/service.ts, leads.email_key). "Today" is the South African day.
import { isDisposableEmailDomain } from "disposable-email-domains-js";
import { and, count, eq, gte, isNotNull } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Db } from "@/server/db/client";
import { trialRefusals, trials } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { AppError } from "@/server/lib/errors";
import { type TrialLimits, trialLimits } from "@/shared/trial-schemas";

type Executor = Pick<Db, "select">;

export type LimitReason = "disposable-email" | "network" | "daily-cap";
/**
 * What trial_refusals counts: the limits here, the order's own two rules (refused in
 * orders/service.ts's words), and a trial asked for with a client's number, which is never
 * answered as a refusal (who is a customer is not public): the client is told privately
 * (service.ts, tellClient).
 */
export type RefusalReason = LimitReason | "returning-client" | "already-had-trial" | "blackout-day";

export const TRIAL_LIMIT_MESSAGES = {
  "disposable-email": "Free trials need an e-mail address you keep: throwaway addresses can't get one. Please use your own e-mail address.",
  network: "Free trials from your internet connection are used up for today. Please try again tomorrow or choose a paid package.",
  "daily-cap": "Today's free trials are all taken. Please try again tomorrow or choose a paid package.",
} as const satisfies Record<LimitReason, string>;

/**
 * The 409 (400 for the address, which the customer can change) that says which limit, on the
 * field that decides it: the address, or for the day's allowances the free-trial
 * choice itself (`duration`), so a phone shows it there and not only in a toast.
 */
export function limitRefusal(reason: LimitReason): AppError {
  const message = TRIAL_LIMIT_MESSAGES[reason];
  if (reason === "disposable-email") return new AppError(400, "validation", message, { email: message });
  return new AppError(409, "trial_limit", message, { duration: message });
}

export function isDisposableEmail(email: string): boolean {
  const domain = email.trim().toLowerCase().split("@").pop() ?? "";
  if (!domain) return false;
  // a subdomain of a listed domain is the same service (x.mailinator.com)
  const parts = domain.split(".");
  for (let i = 0; i < parts.length - 1; i++) if (isDisposableEmailDomain(parts.slice(i).join("."))) return true;
  return false;
}

/** Midnight at the start of today in Johannesburg (UTC+2 all year), as an instant. */
export function startOfSaDay(now = new Date()): Date {
  const sa = new Date(now.getTime() + 2 * 3_600_000);
  return new Date(Date.UTC(sa.getUTCFullYear(), sa.getUTCMonth(), sa.getUTCDate()) - 2 * 3_600_000);
}

export async function loadTrialLimits(app: FastifyInstance): Promise<TrialLimits> {
  return trialLimits((await loadBusiness(app)).settings);
}

/** Trials from `network` started since the start of today. */
export async function networkTrialsStartedToday(db: Executor, network: string, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(trials)
    .where(and(eq(trials.network, network), isNotNull(trials.started_at), gte(trials.started_at, startOfSaDay(now))));
  return row.n;
}

/** Trials started today, the whole shop. */
export async function trialsStartedToday(db: Executor, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(trials)
    .where(and(isNotNull(trials.started_at), gte(trials.started_at, startOfSaDay(now))));
  return row.n;
}

/**
 * Which limit a trial would break: the address, its network's trials started today and the shop's.
 * The same checks, in the same order and words, when it is asked for and again when its code
 * starts it (a limit reached, or changed, in between still holds).
 */
export async function limitBroken(
  db: Executor,
  limits: TrialLimits,
  trial: { email: string; network: string },
  now = new Date(),
): Promise<LimitReason | null> {
  if (limits.blockDisposable && isDisposableEmail(trial.email)) return "disposable-email";
  if ((await networkTrialsStartedToday(db, trial.network, now)) >= limits.perNetwork) return "network";
  if ((await trialsStartedToday(db, now)) >= limits.dailyCap) return "daily-cap";
  return null;
}

/** Which limit a new trial request would break, checked before anything is saved or sent. */
export async function requestRefusal(
  app: FastifyInstance,
  request: { email: string; network: string },
  now = new Date(),
): Promise<LimitReason | null> {
  return limitBroken(app.db, await loadTrialLimits(app), request, now);
}

/** Counts a refusal for the owner (its own write: the refused request saves nothing else). */
export async function recordRefusal(app: FastifyInstance, reason: RefusalReason, network: string): Promise<void> {
  await app.db.insert(trialRefusals).values({ reason, network });
}
