// The subscription lifecycle: every status a client can be in, every cause that moves them,
// and what each cause does to the status and the term. Pure rules with no I/O; the server's
// lifecycle module (src/server/lib/lifecycle.ts) is the only code that applies them, audits
// each change and makes each cause count once. See docs/architecture.md, "Subscriptions".
//
//   pending ──payment / grant──► active ──term ends──► grace ──grace days pass──► expired
//      │                          ▲  ▲                   │                          │
//      └──trial started──► trial ─┘  └──payment / grant──┴──────────────────────────┘
//                           └──term ends──► expired
//   any status ──admin suspend──► suspended ──admin reactivate──► what the term says now
//
// Terms come only from money (a captured payment) or an explicit, reasoned grant. A payment
// never lifts a suspension: the time is added and the client stays suspended.
import { addMonths } from "./dates";

export const CLIENT_STATUSES = ["pending", "trial", "active", "grace", "expired", "suspended"] as const;
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

/** What each status means to the operator, in the dashboard's words. */
export const CLIENT_STATUS_LABELS: Record<ClientStatus, string> = {
  pending: "Pending payment",
  trial: "Trial",
  active: "Active",
  grace: "Grace period",
  expired: "Expired",
  suspended: "Suspended",
};

// ---- settings the lifecycle reads (site settings free_trial_hours and grace_days) ------------

export const TRIAL_HOURS = { default: 24, min: 1, max: 168 } as const;
export const GRACE_DAYS = { default: 3, min: 0, max: 30 } as const;
export const TRIAL_HOURS_MESSAGE = `Free trial length must be a whole number of hours from ${TRIAL_HOURS.min} to ${TRIAL_HOURS.max}`;
export const GRACE_DAYS_MESSAGE = `Grace days must be a whole number from ${GRACE_DAYS.min} to ${GRACE_DAYS.max}`;

export interface LifecycleRules {
  /** how long a free trial lasts */
  trialHours: number;
  /** how long an ended paid term stays in grace before it is expired */
  graceDays: number;
}

function wholeIn(value: string | undefined, range: { default: number; min: number; max: number }): number {
  const text = (value ?? "").trim();
  if (!/^\d+$/.test(text)) return range.default;
  const n = Number(text);
  return n >= range.min && n <= range.max ? n : range.default;
}

/** The rules from the site settings map; a missing or out-of-range value reads as its default. */
export function lifecycleRules(settings: Record<string, string | undefined>): LifecycleRules {
  return { trialHours: wholeIn(settings.free_trial_hours, TRIAL_HOURS), graceDays: wholeIn(settings.grace_days, GRACE_DAYS) };
}

/** Validates a setting the lifecycle reads: the message for a bad value, null when it is fine (or not one of ours). */
// ---- expiry reminders ---------------------------------------------------------------------------

/** Days before a term ends that a reminder goes (0: the day it ends), the reminder_days setting's default. */
export const DEFAULT_REMINDER_DAYS = [7, 3, 1, 0] as const;
export const REMINDER_DAYS_MESSAGE =
  "Reminder days must be up to 6 different whole numbers from 0 to 60, separated by commas, e.g. 7,3,1,0";

/** The reminder_days setting ('7,3,1,0'), most days first; null when it is not in that form. */
export function parseReminderDays(value: string): number[] | null {
  const parts = value.split(",").map((part) => part.trim());
  if (parts.length === 0 || parts.length > 6 || parts.some((part) => !/^\d{1,2}$/.test(part))) return null;
  const days = parts.map(Number);
  if (days.some((day) => day > 60) || new Set(days).size !== days.length) return null;
  return days.sort((a, b) => b - a);
}

/** The days the reminders job uses: the setting when it reads, else the default. */
export function reminderDays(settings: Record<string, string | null | undefined>): number[] {
  return parseReminderDays(settings.reminder_days ?? "") ?? [...DEFAULT_REMINDER_DAYS];
}

export function lifecycleSettingError(key: string, value: string): string | null {
  if (key === "reminder_days") return parseReminderDays(value) ? null : REMINDER_DAYS_MESSAGE;
  const range = key === "free_trial_hours" ? TRIAL_HOURS : key === "grace_days" ? GRACE_DAYS : null;
  if (!range) return null;
  const text = value.trim();
  const ok = /^\d+$/.test(text) && Number(text) >= range.min && Number(text) <= range.max;
  return ok ? null : key === "free_trial_hours" ? TRIAL_HOURS_MESSAGE : GRACE_DAYS_MESSAGE;
}

// ---- the term and what moves it -----------------------------------------------------------------

export interface Term {
  status: ClientStatus;
  start: Date | null;
  end: Date | null;
  /** while suspended: the status the client had when the suspension began */
  suspendedFrom: ClientStatus | null;
}

export type Cause =
  /** money confirmed for a package of `months` (card webhook, an EFT marked paid, a payment recorded by hand) */
  | { kind: "payment-captured"; months: number }
  /** a free trial of `hours` begins (a free-trial lead converted, or an admin starting one) */
  | { kind: "trial-started"; hours: number }
  /** the scheduled job: the end of a trial or paid term has passed */
  | { kind: "term-ended" }
  /** the scheduled job: the grace days after a paid term have passed */
  | { kind: "grace-ended" }
  | { kind: "admin-suspend" }
  | { kind: "admin-reactivate" }
  /** time an admin gives without payment, always with a reason */
  | { kind: "complimentary-grant"; months?: number; days?: number }
  /** money given back: the term loses `months` and/or `days`, or ends now (`endNow`) */
  | { kind: "refund"; months?: number; days?: number; endNow?: boolean }
  /**
   * a flagged duplicate merged into this client: the `months` one of its payments bought move
   * here (`lineMoved`: its panel line, which already holds that time, moved here with it)
   */
  | { kind: "merged-in"; months: number; lineMoved?: boolean }
  /** this client was merged into another: its term ends now, its time and money went there */
  | { kind: "merged-away" }
  /**
   * a difference the panel sync found, settled by the owner taking the panel's side (drift
   * "accept"): the panel's expiry becomes our term's end (`end`), or its switched-off line a
   * suspension (`enabled: false`)
   */
  | { kind: "panel-accepted"; end?: Date; enabled?: false };

export type CauseKind = Cause["kind"];

export const CAUSE_LABELS: Record<CauseKind, string> = {
  "payment-captured": "Payment captured",
  "trial-started": "Trial started",
  "term-ended": "Term ended",
  "grace-ended": "Grace period ended",
  "admin-suspend": "Suspended by an admin",
  "admin-reactivate": "Reactivated by an admin",
  "complimentary-grant": "Complimentary time granted",
  refund: "Refunded",
  "merged-in": "Time moved in from a merged duplicate",
  "merged-away": "Merged into another client",
  "panel-accepted": "The panel's line taken as ours",
};

export type Outcome = { ok: true; term: Term } | { ok: false; reason: string };

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** When the grace period after a paid term that ends at `end` runs out. */
export function graceEnd(end: Date, rules: Pick<LifecycleRules, "graceDays">): Date {
  return new Date(end.getTime() + rules.graceDays * DAY_MS);
}

/**
 * The status a term has at `now` by its dates alone, for a client who was `was` before: what an
 * ended term falls to, and what a reactivated client comes back as.
 */
export function statusByTerm(
  was: ClientStatus | null,
  end: Date | null,
  now: Date,
  rules: Pick<LifecycleRules, "graceDays">,
): ClientStatus {
  // No end: no term was ever bought or granted.
  if (end === null) return "pending";
  if (end > now) return was === "trial" ? "trial" : "active";
  // A free trial has no grace: it simply ends.
  if (was === "trial") return "expired";
  return graceEnd(end, rules) > now ? "grace" : "expired";
}

/** The status that decides where added time starts: a suspended client counts as what the term says. */
function effectiveStatus(term: Term, now: Date, rules: Pick<LifecycleRules, "graceDays">): ClientStatus {
  return term.status === "suspended" ? statusByTerm(term.suspendedFrom, term.end, now, rules) : term.status;
}

/**
 * Time bought or granted: added to the current end while a term is running, in grace or a trial
 * (no day is lost), else counted from now. The dates decide as well as the stored status: a term
 * whose grace days have passed (the job not yet run) counts from now, and so does time that
 * would still end in the past. A suspended client keeps the suspension.
 */
function addTime(term: Term, now: Date, rules: LifecycleRules, add: (from: Date) => Date): Outcome {
  const status = effectiveStatus(term, now, rules);
  const running = ["active", "grace", "trial"].includes(status) && term.end !== null && graceEnd(term.end, rules) > now;
  let from = running ? (term.end as Date) : now;
  let end = add(from);
  if (end <= now) {
    from = now;
    end = add(now);
  }
  const start = from !== now && status !== "trial" && term.start ? term.start : now;
  if (term.status === "suspended") return { ok: true, term: { status: "suspended", start, end, suspendedFrom: "active" } };
  return { ok: true, term: { status: "active", start, end, suspendedFrom: null } };
}

/** What `cause` does to `term` at `now`, or why it may not happen. */
export function applyCause(term: Term, cause: Cause, now: Date, rules: LifecycleRules): Outcome {
  switch (cause.kind) {
    case "payment-captured":
      if (!Number.isInteger(cause.months) || cause.months <= 0)
        return { ok: false, reason: "That package has no length in months to add." };
      return addTime(term, now, rules, (from) => addMonths(from, cause.months));

    case "complimentary-grant": {
      const months = cause.months ?? 0;
      const days = cause.days ?? 0;
      const whole = (n: number) => Number.isInteger(n) && n >= 0;
      if (!whole(months) || !whole(days) || months + days <= 0) return { ok: false, reason: "Grant at least one day or one month." };
      return addTime(term, now, rules, (from) => new Date(addMonths(from, months).getTime() + days * DAY_MS));
    }

    case "trial-started":
      if (term.status !== "pending") return { ok: false, reason: "A free trial can only start before the client's first term." };
      if (!Number.isInteger(cause.hours) || cause.hours < TRIAL_HOURS.min || cause.hours > TRIAL_HOURS.max) {
        return { ok: false, reason: `A free trial lasts ${TRIAL_HOURS.min} to ${TRIAL_HOURS.max} hours.` };
      }
      return { ok: true, term: { status: "trial", start: now, end: new Date(now.getTime() + cause.hours * HOUR_MS), suspendedFrom: null } };

    case "term-ended": {
      if (term.status !== "active" && term.status !== "trial") return { ok: false, reason: "Only a running term can end." };
      if (!term.end || term.end > now) return { ok: false, reason: "The term has not ended yet." };
      return { ok: true, term: { ...term, status: statusByTerm(term.status, term.end, now, rules), suspendedFrom: null } };
    }

    case "grace-ended":
      if (term.status !== "grace" || !term.end) return { ok: false, reason: "The client is not in a grace period." };
      if (graceEnd(term.end, rules) > now) return { ok: false, reason: "The grace period has not ended yet." };
      return { ok: true, term: { ...term, status: "expired", suspendedFrom: null } };

    case "admin-suspend":
      if (term.status === "suspended") return { ok: false, reason: "This client is already suspended." };
      return { ok: true, term: { ...term, status: "suspended", suspendedFrom: term.status } };

    case "admin-reactivate":
      if (term.status !== "suspended") return { ok: false, reason: "This client is not suspended." };
      return { ok: true, term: { ...term, status: statusByTerm(term.suspendedFrom, term.end, now, rules), suspendedFrom: null } };

    case "refund":
      return shortenTerm(term, cause, now);

    case "merged-in":
      if (!Number.isInteger(cause.months) || cause.months <= 0)
        return { ok: false, reason: "That payment has no length in months to move." };
      return addTime(term, now, rules, (from) => addMonths(from, cause.months));

    case "merged-away": {
      if (term.status === "expired" && (!term.end || term.end <= now)) return { ok: true, term: { ...term, suspendedFrom: null } };
      const end = term.end && term.end < now ? term.end : term.end ? now : null;
      const start = term.start && end && term.start > end ? end : term.start;
      return { ok: true, term: { status: "expired", start, end, suspendedFrom: null } };
    }

    case "panel-accepted":
      return acceptPanel(term, cause, now, rules);
  }
}

/**
 * The panel's side taken as ours. An expiry: our end becomes the panel's, and the status what
 * that end says (a suspension stays, over the new end). A line switched off: the client is
 * suspended, as an admin's suspension would. A client with no term, or already off, has
 * nothing to take.
 */
function acceptPanel(term: Term, cause: Extract<Cause, { kind: "panel-accepted" }>, now: Date, rules: LifecycleRules): Outcome {
  if (cause.end) {
    if (term.status === "pending") return { ok: false, reason: "This client has no term of ours to set from the panel." };
    const end = cause.end;
    const start = term.start && term.start > end ? end : term.start;
    if (term.status === "suspended") return { ok: true, term: { status: "suspended", start, end, suspendedFrom: term.suspendedFrom } };
    return {
      ok: true,
      term: { status: statusByTerm(term.status === "trial" ? "trial" : "active", end, now, rules), start, end, suspendedFrom: null },
    };
  }
  if (cause.enabled === false) {
    if (term.status === "suspended") return { ok: false, reason: "This client is already suspended." };
    if (!WATCHING_STATUSES.includes(term.status))
      return { ok: false, reason: `The client is ${term.status}: their line is off on our side too.` };
    return { ok: true, term: { ...term, status: "suspended", suspendedFrom: term.status } };
  }
  return { ok: false, reason: "Nothing of the panel's to take." };
}

/**
 * A refund takes back the time it paid for: `months`/`days` off the end, or the term ends now.
 * A term shortened to (or past) now ends at once, without grace: the money for it went back.
 * An end already past is never moved later. A suspension stays, over what the term now says.
 */
function shortenTerm(term: Term, cause: Extract<Cause, { kind: "refund" }>, now: Date): Outcome {
  if (!term.end || term.status === "pending") return { ok: false, reason: "This client has no term to shorten." };
  const months = cause.months ?? 0;
  const days = cause.days ?? 0;
  const whole = (n: number) => Number.isInteger(n) && n >= 0;
  if (!cause.endNow && (!whole(months) || !whole(days) || months + days <= 0)) {
    return { ok: false, reason: "Shorten the term by at least one day, or end it." };
  }
  const wanted = cause.endNow ? now : new Date(addMonths(term.end, -months).getTime() - days * DAY_MS);
  const ended = wanted <= now;
  const end = ended ? new Date(Math.min(term.end.getTime(), now.getTime())) : wanted;
  const start = term.start && term.start > end ? end : term.start;
  const status: ClientStatus = ended ? "expired" : term.status === "suspended" ? "suspended" : term.status;
  if (term.status === "suspended")
    return { ok: true, term: { status: "suspended", start, end, suspendedFrom: ended ? "expired" : term.suspendedFrom } };
  return { ok: true, term: { status, start, end, suspendedFrom: null } };
}

/** Statuses whose clients are watching (or may, in grace) and get expiry reminders. */
export const WATCHING_STATUSES: readonly ClientStatus[] = ["trial", "active", "grace"];

export function isClientStatus(value: string): value is ClientStatus {
  return (CLIENT_STATUSES as readonly string[]).includes(value);
}
