import { describe, expect, it } from "vitest";
import { addMonths } from "./dates";
import {
  applyCause,
  CAUSE_LABELS,
  type Cause,
  type CauseKind,
  CLIENT_STATUS_LABELS,
  CLIENT_STATUSES,
  type ClientStatus,
  GRACE_DAYS,
  GRACE_DAYS_MESSAGE,
  graceEnd,
  isClientStatus,
  type LifecycleRules,
  lifecycleRules,
  lifecycleSettingError,
  parseReminderDays,
  REMINDER_DAYS_MESSAGE,
  reminderDays,
  statusByTerm,
  type Term,
  TRIAL_HOURS,
  TRIAL_HOURS_MESSAGE,
  WATCHING_STATUSES,
} from "./lifecycle";

// Every date is fixed. NOW is 23 Nov 2026, 12:00 in South Africa.
const NOW = new Date("2026-11-23T10:00:00Z");
const at = (iso: string) => new Date(iso);

/** The site's defaults: a 24-hour trial and 3 grace days. */
const DEFAULTS = lifecycleRules({});
const withGrace = (graceDays: number): LifecycleRules => ({ ...DEFAULTS, graceDays });

const term = (status: ClientStatus, start: string | null, end: string | null, suspendedFrom: ClientStatus | null = null): Term => ({
  status,
  start: start === null ? null : at(start),
  end: end === null ? null : at(end),
  suspendedFrom,
});

// The clients the tables start from, at NOW.
const PENDING = term("pending", null, null);
/** a 24-hour trial started two hours ago: 22 hours left */
const TRIAL = term("trial", "2026-11-23T08:00:00Z", "2026-11-24T08:00:00Z");
/** a paid month with 30 days left */
const ACTIVE = term("active", "2026-10-23T10:00:00Z", "2026-12-23T10:00:00Z");
/** a paid term that ended yesterday: 2 of the 3 grace days left */
const GRACE = term("grace", "2026-10-22T10:00:00Z", "2026-11-22T10:00:00Z");
/** a paid term that ended on 1 Oct, long past its grace */
const EXPIRED = term("expired", "2026-09-01T10:00:00Z", "2026-10-01T10:00:00Z");
const suspended = (from: Term): Term => ({ ...from, status: "suspended", suspendedFrom: from.status });

interface Row {
  rule: string;
  before: Term;
  cause: Cause;
  /** the term afterwards, or the reason the cause is refused */
  after: Term | string;
  now?: Date;
  rules?: LifecycleRules;
}

function check({ before, cause, after, now = NOW, rules = DEFAULTS }: Row) {
  const frozen = structuredClone(before);
  const outcome = applyCause(before, cause, now, rules);
  if (typeof after === "string") expect(outcome).toEqual({ ok: false, reason: after });
  else expect(outcome).toEqual({ ok: true, term: after });
  // A rule never changes the term it was given.
  expect(before).toEqual(frozen);
}

const month = (months: number): Cause => ({ kind: "payment-captured", months });
const NO_MONTHS = "That package has no length in months to add.";

const PAYMENT_ROWS: Row[] = [
  {
    rule: "pending + 1 month: starts now, ends a month from now",
    before: PENDING,
    cause: month(1),
    after: term("active", "2026-11-23T10:00:00Z", "2026-12-23T10:00:00Z"),
  },
  {
    rule: "expired + 1 month: starts now, not from the old end of 1 Oct",
    before: EXPIRED,
    cause: month(1),
    after: term("active", "2026-11-23T10:00:00Z", "2026-12-23T10:00:00Z"),
  },
  {
    rule: "active + 1 month: added to the current end (23 Dec → 23 Jan), start kept",
    before: ACTIVE,
    cause: month(1),
    after: term("active", "2026-10-23T10:00:00Z", "2027-01-23T10:00:00Z"),
  },
  {
    rule: "active + 3 months: 23 Dec → 23 Mar",
    before: ACTIVE,
    cause: month(3),
    after: term("active", "2026-10-23T10:00:00Z", "2027-03-23T10:00:00Z"),
  },
  {
    rule: "active + 12 months: 23 Dec 2026 → 23 Dec 2027",
    before: ACTIVE,
    cause: month(12),
    after: term("active", "2026-10-23T10:00:00Z", "2027-12-23T10:00:00Z"),
  },
  {
    rule: "grace + 1 month: from the old end (22 Nov → 22 Dec), so no day is lost, start kept",
    before: GRACE,
    cause: month(1),
    after: term("active", "2026-10-22T10:00:00Z", "2026-12-22T10:00:00Z"),
  },
  {
    rule: "trial + 1 month: added to the trial's end (24 Nov 08:00 → 24 Dec 08:00), the paid term starts now",
    before: TRIAL,
    cause: month(1),
    after: term("active", "2026-11-23T10:00:00Z", "2026-12-24T08:00:00Z"),
  },
  {
    rule: "suspended (was active) + 1 month: time added, stays suspended",
    before: suspended(ACTIVE),
    cause: month(1),
    after: term("suspended", "2026-10-23T10:00:00Z", "2027-01-23T10:00:00Z", "active"),
  },
  {
    rule: "suspended (was in grace, still within it) + 1 month: from the old end, stays suspended",
    before: suspended(GRACE),
    cause: month(1),
    after: term("suspended", "2026-10-22T10:00:00Z", "2026-12-22T10:00:00Z", "active"),
  },
  {
    rule: "suspended (was active, term lapsed on 1 Oct) + 1 month: counts from now, stays suspended",
    before: { ...suspended(EXPIRED), suspendedFrom: "active" },
    cause: month(1),
    after: term("suspended", "2026-11-23T10:00:00Z", "2026-12-23T10:00:00Z", "active"),
  },
  {
    rule: "suspended (was expired) + 1 month: counts from now, stays suspended",
    before: suspended(EXPIRED),
    cause: month(1),
    after: term("suspended", "2026-11-23T10:00:00Z", "2026-12-23T10:00:00Z", "active"),
  },
  {
    rule: "suspended (was pending) + 1 month: counts from now, stays suspended",
    before: suspended(PENDING),
    cause: month(1),
    after: term("suspended", "2026-11-23T10:00:00Z", "2026-12-23T10:00:00Z", "active"),
  },
  {
    rule: "active + a term ending 31 Jan: + 1 month ends 28 Feb (addMonths keeps it in February)",
    before: term("active", "2026-12-31T10:00:00Z", "2027-01-31T10:00:00Z"),
    cause: month(1),
    after: term("active", "2026-12-31T10:00:00Z", "2027-02-28T10:00:00Z"),
  },
  {
    rule: "active + a term ending 31 Jan 2028: + 1 month ends 29 Feb (a leap year)",
    before: term("active", "2027-12-31T10:00:00Z", "2028-01-31T10:00:00Z"),
    cause: month(1),
    after: term("active", "2027-12-31T10:00:00Z", "2028-02-29T10:00:00Z"),
  },
  {
    rule: "pending paid on 31 Jan: + 1 month ends 28 Feb",
    now: at("2027-01-31T10:00:00Z"),
    before: PENDING,
    cause: month(1),
    after: term("active", "2027-01-31T10:00:00Z", "2027-02-28T10:00:00Z"),
  },
  {
    rule: "pending paid 00:30 on 1 Feb in SA (22:30 UTC on 31 Jan): the SA day counts, ends 1 Mar 00:30 SAST",
    now: at("2027-01-31T22:30:00Z"),
    before: PENDING,
    cause: month(1),
    after: term("active", "2027-01-31T22:30:00Z", "2027-02-28T22:30:00Z"),
  },
  { rule: "active + 0 months: refused", before: ACTIVE, cause: month(0), after: NO_MONTHS },
  { rule: "pending + -1 months: refused", before: PENDING, cause: month(-1), after: NO_MONTHS },
  { rule: "suspended + 0 months: refused", before: suspended(ACTIVE), cause: month(0), after: NO_MONTHS },
];

const grant = (g: { months?: number; days?: number }): Cause => ({ kind: "complimentary-grant", ...g });
const GRANT_NOTHING = "Grant at least one day or one month.";

const GRANT_ROWS: Row[] = [
  {
    rule: "pending + 7 days: starts now, ends 30 Nov",
    before: PENDING,
    cause: grant({ days: 7 }),
    after: term("active", "2026-11-23T10:00:00Z", "2026-11-30T10:00:00Z"),
  },
  {
    rule: "expired + 1 month: from now",
    before: EXPIRED,
    cause: grant({ months: 1 }),
    after: term("active", "2026-11-23T10:00:00Z", "2026-12-23T10:00:00Z"),
  },
  {
    rule: "active + 14 days: 23 Dec → 6 Jan, start kept",
    before: ACTIVE,
    cause: grant({ days: 14 }),
    after: term("active", "2026-10-23T10:00:00Z", "2027-01-06T10:00:00Z"),
  },
  {
    rule: "active + 1 month and 5 days: the month first (23 Jan), then the days (28 Jan)",
    before: ACTIVE,
    cause: grant({ months: 1, days: 5 }),
    after: term("active", "2026-10-23T10:00:00Z", "2027-01-28T10:00:00Z"),
  },
  {
    rule: "grace + 3 days: from the old end (22 Nov → 25 Nov)",
    before: GRACE,
    cause: grant({ days: 3 }),
    after: term("active", "2026-10-22T10:00:00Z", "2026-11-25T10:00:00Z"),
  },
  {
    rule: "trial + 7 days: from the trial's end, the term starts now",
    before: TRIAL,
    cause: grant({ days: 7 }),
    after: term("active", "2026-11-23T10:00:00Z", "2026-12-01T08:00:00Z"),
  },
  {
    rule: "suspended (was active) + 7 days: time added, stays suspended",
    before: suspended(ACTIVE),
    cause: grant({ days: 7 }),
    after: term("suspended", "2026-10-23T10:00:00Z", "2026-12-30T10:00:00Z", "active"),
  },
  { rule: "nothing given: refused", before: ACTIVE, cause: grant({}), after: GRANT_NOTHING },
  { rule: "0 days: refused", before: PENDING, cause: grant({ days: 0 }), after: GRANT_NOTHING },
  { rule: "0 months and 0 days: refused", before: EXPIRED, cause: grant({ months: 0, days: 0 }), after: GRANT_NOTHING },
  { rule: "-1 days: refused", before: GRACE, cause: grant({ days: -1 }), after: GRANT_NOTHING },
  {
    rule: "-1 months with 40 days: refused (no negative part)",
    before: ACTIVE,
    cause: grant({ months: -1, days: 40 }),
    after: GRANT_NOTHING,
  },
  { rule: "suspended + 0 days: refused", before: suspended(ACTIVE), cause: grant({ days: 0 }), after: GRANT_NOTHING },
];

const trial = (hours: number): Cause => ({ kind: "trial-started", hours });
const NOT_FIRST = "A free trial can only start before the client's first term.";

const TRIAL_ROWS: Row[] = [
  {
    rule: "pending + the default 24-hour trial: ends 24 h from now",
    before: PENDING,
    cause: trial(DEFAULTS.trialHours),
    after: term("trial", "2026-11-23T10:00:00Z", "2026-11-24T10:00:00Z"),
  },
  {
    rule: "pending + a 168-hour trial (the most the setting allows): ends 7 days from now",
    before: PENDING,
    cause: trial(lifecycleRules({ free_trial_hours: "168" }).trialHours),
    after: term("trial", "2026-11-23T10:00:00Z", "2026-11-30T10:00:00Z"),
  },
  {
    rule: "pending + a 1-hour trial",
    before: PENDING,
    cause: trial(1),
    after: term("trial", "2026-11-23T10:00:00Z", "2026-11-23T11:00:00Z"),
  },
  { rule: "pending + 0 hours: refused", before: PENDING, cause: trial(0), after: "A free trial lasts 1 to 168 hours." },
  { rule: "pending + -24 hours: refused", before: PENDING, cause: trial(-24), after: "A free trial lasts 1 to 168 hours." },
  {
    rule: "pending + 169 hours: refused (the setting's range is 1-168)",
    before: PENDING,
    cause: trial(169),
    after: "A free trial lasts 1 to 168 hours.",
  },
  { rule: "pending + 1.5 hours: refused", before: PENDING, cause: trial(1.5), after: "A free trial lasts 1 to 168 hours." },
  { rule: "trial: a second trial is refused", before: TRIAL, cause: trial(24), after: NOT_FIRST },
  { rule: "active: refused", before: ACTIVE, cause: trial(24), after: NOT_FIRST },
  { rule: "grace: refused", before: GRACE, cause: trial(24), after: NOT_FIRST },
  { rule: "expired: refused", before: EXPIRED, cause: trial(24), after: NOT_FIRST },
  { rule: "suspended (was pending): refused", before: suspended(PENDING), cause: trial(24), after: NOT_FIRST },
];

const TERM_ENDED: Cause = { kind: "term-ended" };
const NOT_RUNNING = "Only a running term can end.";
const NOT_ENDED = "The term has not ended yet.";
const activeEnding = (end: string) => term("active", "2026-10-01T10:00:00Z", end);

const TERM_ENDED_ROWS: Row[] = [
  {
    rule: "active, ended a minute ago (3 grace days) → grace, dates kept",
    before: activeEnding("2026-11-23T09:59:00Z"),
    cause: TERM_ENDED,
    after: term("grace", "2026-10-01T10:00:00Z", "2026-11-23T09:59:00Z"),
  },
  {
    rule: "active, ending exactly now → grace",
    before: activeEnding("2026-11-23T10:00:00Z"),
    cause: TERM_ENDED,
    after: term("grace", "2026-10-01T10:00:00Z", "2026-11-23T10:00:00Z"),
  },
  {
    rule: "active, ended 3 days less a second ago → grace (one second of grace left)",
    before: activeEnding("2026-11-20T10:00:01Z"),
    cause: TERM_ENDED,
    after: term("grace", "2026-10-01T10:00:00Z", "2026-11-20T10:00:01Z"),
  },
  {
    rule: "active, ended exactly 3 days ago → expired (the grace is used up on the boundary)",
    before: activeEnding("2026-11-20T10:00:00Z"),
    cause: TERM_ENDED,
    after: term("expired", "2026-10-01T10:00:00Z", "2026-11-20T10:00:00Z"),
  },
  {
    rule: "active, ended 1 Nov (the job ran late) → straight to expired",
    before: activeEnding("2026-11-01T10:00:00Z"),
    cause: TERM_ENDED,
    after: term("expired", "2026-10-01T10:00:00Z", "2026-11-01T10:00:00Z"),
  },
  {
    rule: "active with 0 grace days, ended a minute ago → straight to expired",
    rules: withGrace(0),
    before: activeEnding("2026-11-23T09:59:00Z"),
    cause: TERM_ENDED,
    after: term("expired", "2026-10-01T10:00:00Z", "2026-11-23T09:59:00Z"),
  },
  {
    rule: "active with 30 grace days, ended 29 days ago → grace",
    rules: withGrace(30),
    before: activeEnding("2026-10-25T10:00:00Z"),
    cause: TERM_ENDED,
    after: term("grace", "2026-10-01T10:00:00Z", "2026-10-25T10:00:00Z"),
  },
  {
    rule: "active, ending a millisecond from now: refused",
    before: activeEnding("2026-11-23T10:00:00.001Z"),
    cause: TERM_ENDED,
    after: NOT_ENDED,
  },
  { rule: "active with no end: refused", before: term("active", "2026-10-01T10:00:00Z", null), cause: TERM_ENDED, after: NOT_ENDED },
  { rule: "active, 30 days left: refused", before: ACTIVE, cause: TERM_ENDED, after: NOT_ENDED },
  {
    rule: "trial, ended a minute ago → expired (a trial has no grace, even with 3 grace days)",
    before: term("trial", "2026-11-22T09:59:00Z", "2026-11-23T09:59:00Z"),
    cause: TERM_ENDED,
    after: term("expired", "2026-11-22T09:59:00Z", "2026-11-23T09:59:00Z"),
  },
  {
    rule: "trial, ending exactly now → expired",
    before: term("trial", "2026-11-22T10:00:00Z", "2026-11-23T10:00:00Z"),
    cause: TERM_ENDED,
    after: term("expired", "2026-11-22T10:00:00Z", "2026-11-23T10:00:00Z"),
  },
  { rule: "trial, 22 hours left: refused", before: TRIAL, cause: TERM_ENDED, after: NOT_ENDED },
  { rule: "pending: refused", before: PENDING, cause: TERM_ENDED, after: NOT_RUNNING },
  { rule: "grace: refused (grace-ended moves it on)", before: GRACE, cause: TERM_ENDED, after: NOT_RUNNING },
  { rule: "expired: refused", before: EXPIRED, cause: TERM_ENDED, after: NOT_RUNNING },
  {
    rule: "suspended (was active, end passed): refused, reactivation reads the dates",
    before: suspended(activeEnding("2026-11-23T09:59:00Z")),
    cause: TERM_ENDED,
    after: NOT_RUNNING,
  },
];

const GRACE_ENDED: Cause = { kind: "grace-ended" };
const NOT_IN_GRACE = "The client is not in a grace period.";
const graceFrom = (end: string) => term("grace", "2026-10-01T10:00:00Z", end);

const GRACE_ENDED_ROWS: Row[] = [
  {
    rule: "grace, the 3 days run out exactly now → expired, dates kept",
    before: graceFrom("2026-11-20T10:00:00Z"),
    cause: GRACE_ENDED,
    after: term("expired", "2026-10-01T10:00:00Z", "2026-11-20T10:00:00Z"),
  },
  {
    rule: "grace, ended 1 Nov (the job ran late) → expired",
    before: graceFrom("2026-11-01T10:00:00Z"),
    cause: GRACE_ENDED,
    after: term("expired", "2026-10-01T10:00:00Z", "2026-11-01T10:00:00Z"),
  },
  {
    rule: "grace, one second of the 3 days left: refused",
    before: graceFrom("2026-11-20T10:00:01Z"),
    cause: GRACE_ENDED,
    after: "The grace period has not ended yet.",
  },
  { rule: "grace, ended yesterday: refused", before: GRACE, cause: GRACE_ENDED, after: "The grace period has not ended yet." },
  {
    rule: "grace with 0 grace days, ended a minute ago → expired",
    rules: withGrace(0),
    before: graceFrom("2026-11-23T09:59:00Z"),
    cause: GRACE_ENDED,
    after: term("expired", "2026-10-01T10:00:00Z", "2026-11-23T09:59:00Z"),
  },
  {
    rule: "grace with 30 grace days, ended 30 days ago → expired",
    rules: withGrace(30),
    before: graceFrom("2026-10-24T10:00:00Z"),
    cause: GRACE_ENDED,
    after: term("expired", "2026-10-01T10:00:00Z", "2026-10-24T10:00:00Z"),
  },
  {
    rule: "grace with 30 grace days, ended 29 days ago: refused",
    rules: withGrace(30),
    before: graceFrom("2026-10-25T10:00:00Z"),
    cause: GRACE_ENDED,
    after: "The grace period has not ended yet.",
  },
  { rule: "grace with no end: refused", before: term("grace", null, null), cause: GRACE_ENDED, after: NOT_IN_GRACE },
  { rule: "pending: refused", before: PENDING, cause: GRACE_ENDED, after: NOT_IN_GRACE },
  { rule: "trial: refused", before: TRIAL, cause: GRACE_ENDED, after: NOT_IN_GRACE },
  { rule: "active: refused", before: ACTIVE, cause: GRACE_ENDED, after: NOT_IN_GRACE },
  { rule: "expired: refused", before: EXPIRED, cause: GRACE_ENDED, after: NOT_IN_GRACE },
  {
    rule: "suspended (was in grace, now over): refused, reactivation reads the dates",
    before: suspended(graceFrom("2026-11-01T10:00:00Z")),
    cause: GRACE_ENDED,
    after: NOT_IN_GRACE,
  },
];

const SUSPEND: Cause = { kind: "admin-suspend" };

const SUSPEND_ROWS: Row[] = [
  ...[PENDING, TRIAL, ACTIVE, GRACE, EXPIRED].map(
    (before): Row => ({
      rule: `${before.status} → suspended, remembering '${before.status}', dates kept`,
      before,
      cause: SUSPEND,
      after: { ...before, status: "suspended", suspendedFrom: before.status },
    }),
  ),
  { rule: "suspended: refused", before: suspended(ACTIVE), cause: SUSPEND, after: "This client is already suspended." },
];

const REACTIVATE: Cause = { kind: "admin-reactivate" };
const NOT_SUSPENDED = "This client is not suspended.";
const wasSuspended = (from: ClientStatus, start: string | null, end: string | null) => term("suspended", start, end, from);

const REACTIVATE_ROWS: Row[] = [
  { rule: "was pending, no term → pending", before: suspended(PENDING), cause: REACTIVATE, after: PENDING },
  { rule: "was trial, 22 hours left → trial", before: suspended(TRIAL), cause: REACTIVATE, after: TRIAL },
  {
    rule: "was trial, ended a minute ago → expired (no grace after a trial)",
    before: wasSuspended("trial", "2026-11-22T09:59:00Z", "2026-11-23T09:59:00Z"),
    cause: REACTIVATE,
    after: term("expired", "2026-11-22T09:59:00Z", "2026-11-23T09:59:00Z"),
  },
  { rule: "was active, 30 days left → active", before: suspended(ACTIVE), cause: REACTIVATE, after: ACTIVE },
  {
    rule: "was active, ended yesterday → grace (2 of 3 days left)",
    before: wasSuspended("active", "2026-10-22T10:00:00Z", "2026-11-22T10:00:00Z"),
    cause: REACTIVATE,
    after: GRACE,
  },
  {
    rule: "was active, ended exactly 3 days ago → expired",
    before: wasSuspended("active", "2026-10-20T10:00:00Z", "2026-11-20T10:00:00Z"),
    cause: REACTIVATE,
    after: term("expired", "2026-10-20T10:00:00Z", "2026-11-20T10:00:00Z"),
  },
  {
    rule: "was active with 0 grace days, ended a minute ago → expired",
    rules: withGrace(0),
    before: wasSuspended("active", "2026-10-23T09:59:00Z", "2026-11-23T09:59:00Z"),
    cause: REACTIVATE,
    after: term("expired", "2026-10-23T09:59:00Z", "2026-11-23T09:59:00Z"),
  },
  { rule: "was in grace, still within it → grace", before: suspended(GRACE), cause: REACTIVATE, after: GRACE },
  {
    rule: "was in grace, the grace ran out while suspended → expired",
    before: wasSuspended("grace", "2026-10-19T10:00:00Z", "2026-11-19T10:00:00Z"),
    cause: REACTIVATE,
    after: term("expired", "2026-10-19T10:00:00Z", "2026-11-19T10:00:00Z"),
  },
  { rule: "was expired → expired", before: suspended(EXPIRED), cause: REACTIVATE, after: EXPIRED },
  {
    rule: "was expired, paid while suspended → active from the payment",
    before: term("suspended", "2026-11-23T10:00:00Z", "2026-12-23T10:00:00Z", "active"),
    cause: REACTIVATE,
    after: term("active", "2026-11-23T10:00:00Z", "2026-12-23T10:00:00Z"),
  },
  { rule: "pending: refused", before: PENDING, cause: REACTIVATE, after: NOT_SUSPENDED },
  { rule: "trial: refused", before: TRIAL, cause: REACTIVATE, after: NOT_SUSPENDED },
  { rule: "active: refused", before: ACTIVE, cause: REACTIVATE, after: NOT_SUSPENDED },
  { rule: "grace: refused", before: GRACE, cause: REACTIVATE, after: NOT_SUSPENDED },
  { rule: "expired: refused", before: EXPIRED, cause: REACTIVATE, after: NOT_SUSPENDED },
];

const refund = (r: { months?: number; days?: number; endNow?: boolean }): Cause => ({ kind: "refund", ...r });
const NO_TERM = "This client has no term to shorten.";

// ACTIVE runs 23 Oct → 23 Dec; NOW is 23 Nov.
const REFUND_ROWS: Row[] = [
  { rule: "pending: nothing to shorten", before: PENDING, cause: refund({ months: 1 }), after: NO_TERM },
  {
    rule: "active, a refunded month off a term with two left → ends 23 Nov + 1 month, still active",
    before: term("active", "2026-10-23T10:00:00Z", "2027-01-23T10:00:00Z"),
    cause: refund({ months: 1 }),
    after: term("active", "2026-10-23T10:00:00Z", "2026-12-23T10:00:00Z"),
  },
  {
    rule: "active, the whole month it paid for refunded → ends now, expired (no grace for refunded time)",
    before: ACTIVE,
    cause: refund({ months: 1 }),
    after: term("expired", "2026-10-23T10:00:00Z", "2026-11-23T10:00:00Z"),
  },
  {
    rule: "active, 10 days off → ends 13 Dec, still active",
    before: ACTIVE,
    cause: refund({ days: 10 }),
    after: term("active", "2026-10-23T10:00:00Z", "2026-12-13T10:00:00Z"),
  },
  {
    rule: "active, ended now by the owner",
    before: ACTIVE,
    cause: refund({ endNow: true }),
    after: term("expired", "2026-10-23T10:00:00Z", "2026-11-23T10:00:00Z"),
  },
  {
    rule: "active, nothing to take off: refused",
    before: ACTIVE,
    cause: refund({}),
    after: "Shorten the term by at least one day, or end it.",
  },
  {
    rule: "trial, ended now → expired at now",
    before: TRIAL,
    cause: refund({ endNow: true }),
    after: term("expired", "2026-11-23T08:00:00Z", "2026-11-23T10:00:00Z"),
  },
  {
    rule: "grace, a month off an end already past → expired, the end not moved later",
    before: GRACE,
    cause: refund({ months: 1 }),
    after: term("expired", "2026-10-22T10:00:00Z", "2026-11-22T10:00:00Z"),
  },
  {
    rule: "expired, a month off → stays expired, end kept",
    before: EXPIRED,
    cause: refund({ months: 1 }),
    after: term("expired", "2026-09-01T10:00:00Z", "2026-10-01T10:00:00Z"),
  },
  {
    rule: "suspended (was active), the month refunded → still suspended, over an expired term",
    before: suspended(ACTIVE),
    cause: refund({ months: 1 }),
    after: term("suspended", "2026-10-23T10:00:00Z", "2026-11-23T10:00:00Z", "expired"),
  },
];

// A flagged duplicate merged into a client (issue 24): its paid months move here like a payment.
const mergedIn = (months: number): Cause => ({ kind: "merged-in", months });
const MERGED_IN_ROWS: Row[] = [
  {
    rule: "pending + a merged month: starts now, like a payment",
    before: PENDING,
    cause: mergedIn(1),
    after: term("active", "2026-11-23T10:00:00Z", "2026-12-23T10:00:00Z"),
  },
  {
    rule: "trial + a merged month: from the trial's end, now a paid term",
    before: TRIAL,
    cause: mergedIn(1),
    after: term("active", "2026-11-23T10:00:00Z", "2026-12-24T08:00:00Z"),
  },
  {
    rule: "active + a merged month: added to the current end, start kept",
    before: ACTIVE,
    cause: mergedIn(1),
    after: term("active", "2026-10-23T10:00:00Z", "2027-01-23T10:00:00Z"),
  },
  {
    rule: "grace + a merged month: from the old end, no day lost",
    before: GRACE,
    cause: mergedIn(1),
    after: term("active", "2026-10-22T10:00:00Z", "2026-12-22T10:00:00Z"),
  },
  {
    rule: "expired + a merged month: from now",
    before: EXPIRED,
    cause: mergedIn(1),
    after: term("active", "2026-11-23T10:00:00Z", "2026-12-23T10:00:00Z"),
  },
  {
    rule: "suspended + a merged month: the time is added, the suspension stays",
    before: suspended(ACTIVE),
    cause: mergedIn(1),
    after: term("suspended", "2026-10-23T10:00:00Z", "2027-01-23T10:00:00Z", "active"),
  },
  { rule: "no months: refused", before: ACTIVE, cause: mergedIn(0), after: "That payment has no length in months to move." },
];

const MERGED_AWAY: Cause = { kind: "merged-away" };
const MERGED_AWAY_ROWS: Row[] = [
  { rule: "pending: expired, no term", before: PENDING, cause: MERGED_AWAY, after: term("expired", null, null) },
  {
    rule: "trial: ends now, expired",
    before: TRIAL,
    cause: MERGED_AWAY,
    after: term("expired", "2026-11-23T08:00:00Z", "2026-11-23T10:00:00Z"),
  },
  {
    rule: "active: ends now, expired (its time went to the kept client)",
    before: ACTIVE,
    cause: MERGED_AWAY,
    after: term("expired", "2026-10-23T10:00:00Z", "2026-11-23T10:00:00Z"),
  },
  {
    rule: "grace: the past end kept, expired",
    before: GRACE,
    cause: MERGED_AWAY,
    after: term("expired", "2026-10-22T10:00:00Z", "2026-11-22T10:00:00Z"),
  },
  { rule: "expired: stays as it is", before: EXPIRED, cause: MERGED_AWAY, after: EXPIRED },
  {
    rule: "suspended: ends now, expired, the suspension gone with the account",
    before: suspended(ACTIVE),
    cause: MERGED_AWAY,
    after: term("expired", "2026-10-23T10:00:00Z", "2026-11-23T10:00:00Z"),
  },
];

const panelEnd = (iso: string): Cause => ({ kind: "panel-accepted", end: at(iso) });
const PANEL_OFF: Cause = { kind: "panel-accepted", enabled: false };

/** drift "accept": the panel's expiry becomes our end, or its switched-off line a suspension */
const PANEL_ACCEPTED_ROWS: Row[] = [
  {
    rule: "pending: no term of ours to set",
    before: PENDING,
    cause: panelEnd("2027-01-01T10:00:00Z"),
    after: "This client has no term of ours to set from the panel.",
  },
  {
    rule: "trial: the panel's later end, still a trial",
    before: TRIAL,
    cause: panelEnd("2026-11-25T08:00:00Z"),
    after: term("trial", "2026-11-23T08:00:00Z", "2026-11-25T08:00:00Z"),
  },
  {
    rule: "active: the panel's earlier end, still running",
    before: ACTIVE,
    cause: panelEnd("2026-12-13T10:00:00Z"),
    after: term("active", "2026-10-23T10:00:00Z", "2026-12-13T10:00:00Z"),
  },
  {
    rule: "grace: the panel's later end makes it active again",
    before: GRACE,
    cause: panelEnd("2026-12-22T10:00:00Z"),
    after: term("active", "2026-10-22T10:00:00Z", "2026-12-22T10:00:00Z"),
  },
  {
    rule: "expired: an end already past stays expired",
    before: EXPIRED,
    cause: panelEnd("2026-10-05T10:00:00Z"),
    after: term("expired", "2026-09-01T10:00:00Z", "2026-10-05T10:00:00Z"),
  },
  {
    rule: "suspended: the end moves, the suspension stays",
    before: suspended(ACTIVE),
    cause: panelEnd("2027-01-23T10:00:00Z"),
    after: term("suspended", "2026-10-23T10:00:00Z", "2027-01-23T10:00:00Z", "active"),
  },
  { rule: "active: a line switched off is taken as a suspension", before: ACTIVE, cause: PANEL_OFF, after: suspended(ACTIVE) },
  {
    rule: "expired: the line is off on our side too",
    before: EXPIRED,
    cause: PANEL_OFF,
    after: "The client is expired: their line is off on our side too.",
  },
  { rule: "suspended: already suspended", before: suspended(TRIAL), cause: PANEL_OFF, after: "This client is already suspended." },
];

const TABLES: [CauseKind, Row[]][] = [
  ["payment-captured", PAYMENT_ROWS],
  ["complimentary-grant", GRANT_ROWS],
  ["trial-started", TRIAL_ROWS],
  ["term-ended", TERM_ENDED_ROWS],
  ["grace-ended", GRACE_ENDED_ROWS],
  ["admin-suspend", SUSPEND_ROWS],
  ["admin-reactivate", REACTIVATE_ROWS],
  ["refund", REFUND_ROWS],
  ["merged-in", MERGED_IN_ROWS],
  ["merged-away", MERGED_AWAY_ROWS],
  ["panel-accepted", PANEL_ACCEPTED_ROWS],
];

describe.each(TABLES)("applyCause: %s", (kind, rows) => {
  it.each(rows)("$rule", (row) => {
    expect(row.cause.kind).toBe(kind);
    check(row);
  });
});

describe("applyCause covers every status × cause", () => {
  it("has a row for each of the 6 statuses × 11 causes", () => {
    const covered = new Set(TABLES.flatMap(([, rows]) => rows.map((r) => `${r.before.status} × ${r.cause.kind}`)));
    const all = CLIENT_STATUSES.flatMap((s) => Object.keys(CAUSE_LABELS).map((k) => `${s} × ${k}`));
    expect(all).toHaveLength(66);
    expect(all.filter((pair) => !covered.has(pair))).toEqual([]);
  });

  it("adds the same time whether it is paid for or granted", () => {
    for (const before of [PENDING, TRIAL, ACTIVE, GRACE, EXPIRED, suspended(ACTIVE)]) {
      expect(applyCause(before, month(2), NOW, DEFAULTS)).toEqual(applyCause(before, grant({ months: 2 }), NOW, DEFAULTS));
    }
  });

  it("a payment's end is addMonths from where it counts", () => {
    const paid = applyCause(ACTIVE, month(6), NOW, DEFAULTS);
    expect(paid.ok && paid.term.end).toEqual(addMonths(ACTIVE.end!, 6));
  });
});

describe("a client's life, cause by cause", () => {
  it("pending → trial → active → grace → expired → active again, then suspended and back", () => {
    const steps: [string, Cause, ClientStatus, string | null, string | null][] = [
      ["2026-11-23T10:00:00Z", trial(24), "trial", "2026-11-23T10:00:00Z", "2026-11-24T10:00:00Z"],
      ["2026-11-23T20:00:00Z", month(1), "active", "2026-11-23T20:00:00Z", "2026-12-24T10:00:00Z"],
      ["2026-12-24T10:00:00Z", TERM_ENDED, "grace", "2026-11-23T20:00:00Z", "2026-12-24T10:00:00Z"],
      ["2026-12-27T10:00:00Z", GRACE_ENDED, "expired", "2026-11-23T20:00:00Z", "2026-12-24T10:00:00Z"],
      ["2027-01-05T10:00:00Z", month(1), "active", "2027-01-05T10:00:00Z", "2027-02-05T10:00:00Z"],
      ["2027-01-10T10:00:00Z", SUSPEND, "suspended", "2027-01-05T10:00:00Z", "2027-02-05T10:00:00Z"],
      ["2027-01-11T10:00:00Z", month(3), "suspended", "2027-01-05T10:00:00Z", "2027-05-05T10:00:00Z"],
      ["2027-01-12T10:00:00Z", REACTIVATE, "active", "2027-01-05T10:00:00Z", "2027-05-05T10:00:00Z"],
    ];
    let current = PENDING;
    for (const [now, cause, status, start, end] of steps) {
      const outcome = applyCause(current, cause, at(now), DEFAULTS);
      if (!outcome.ok) throw new Error(`${cause.kind} at ${now} was refused: ${outcome.reason}`);
      current = outcome.term;
      expect([cause.kind, current]).toEqual([cause.kind, term(status, start, end, status === "suspended" ? "active" : null)]);
    }
  });
});

describe("statusByTerm: what the dates say (3 grace days)", () => {
  it.each<[ClientStatus | null, string | null, ClientStatus]>([
    [null, null, "pending"],
    ["pending", null, "pending"],
    // No end: no term was ever bought or granted, whatever the row says.
    ["expired", null, "pending"],
    ["active", null, "pending"],
    ["trial", "2026-11-24T08:00:00Z", "trial"],
    ["trial", "2026-11-23T09:59:00Z", "expired"],
    ["active", "2026-12-23T10:00:00Z", "active"],
    ["grace", "2026-12-23T10:00:00Z", "active"],
    ["active", "2026-11-23T10:00:00Z", "grace"], // ends exactly now
    ["active", "2026-11-20T10:00:01Z", "grace"],
    ["active", "2026-11-20T10:00:00Z", "expired"], // 3 grace days end exactly now
    ["grace", "2026-11-22T10:00:00Z", "grace"],
    ["expired", "2026-10-01T10:00:00Z", "expired"],
  ])("was %s, ends %s → %s", (was, end, status) => {
    expect(statusByTerm(was, end === null ? null : at(end), NOW, DEFAULTS)).toBe(status);
  });

  it("with 0 grace days an ended paid term is expired at once", () => {
    expect(statusByTerm("active", at("2026-11-23T10:00:00Z"), NOW, withGrace(0))).toBe("expired");
  });
});

describe("graceEnd", () => {
  it.each([
    [3, "2026-11-25T10:00:00.000Z"],
    [0, "2026-11-22T10:00:00.000Z"],
    [30, "2026-12-22T10:00:00.000Z"],
  ])("%i grace days after 22 Nov 10:00 → %s", (graceDays, end) => {
    expect(graceEnd(at("2026-11-22T10:00:00Z"), { graceDays }).toISOString()).toBe(end);
  });
});

describe("lifecycleRules: site settings free_trial_hours (1–168, default 24) and grace_days (0–30, default 3)", () => {
  it("uses the documented ranges", () => {
    expect(TRIAL_HOURS).toEqual({ default: 24, min: 1, max: 168 });
    expect(GRACE_DAYS).toEqual({ default: 3, min: 0, max: 30 });
  });

  it.each<[string, Record<string, string | undefined>, number, number]>([
    ["missing → defaults", {}, 24, 3],
    ["undefined → defaults", { free_trial_hours: undefined, grace_days: undefined }, 24, 3],
    ["blank → defaults", { free_trial_hours: "", grace_days: " " }, 24, 3],
    ["'abc' → defaults", { free_trial_hours: "abc", grace_days: "abc" }, 24, 3],
    ["'0' hours is below 1 → 24; '0' grace days is allowed", { free_trial_hours: "0", grace_days: "0" }, 24, 0],
    ["'1' and '30', the edges", { free_trial_hours: "1", grace_days: "30" }, 1, 30],
    ["'168' hours, the most", { free_trial_hours: "168", grace_days: "7" }, 168, 7],
    ["'169' hours and '31' days are too many → defaults", { free_trial_hours: "169", grace_days: "31" }, 24, 3],
    ["'-5' → defaults", { free_trial_hours: "-5", grace_days: "-5" }, 24, 3],
    ["' 48 ' is trimmed → 48", { free_trial_hours: " 48 ", grace_days: " 5 " }, 48, 5],
    ["'1.5' is not whole → defaults", { free_trial_hours: "1.5", grace_days: "2.5" }, 24, 3],
    ["'+12' → defaults", { free_trial_hours: "+12", grace_days: "+2" }, 24, 3],
    ["'012' → 12", { free_trial_hours: "012", grace_days: "02" }, 12, 2],
    ["other settings are ignored", { business_name: "StreamDesk", trial_hours: "48" }, 24, 3],
  ])("%s", (_, settings, trialHours, graceDays) => {
    expect(lifecycleRules(settings)).toEqual({ trialHours, graceDays });
  });
});

describe("lifecycleSettingError", () => {
  it("words the ranges", () => {
    expect(TRIAL_HOURS_MESSAGE).toBe("Free trial length must be a whole number of hours from 1 to 168");
    expect(GRACE_DAYS_MESSAGE).toBe("Grace days must be a whole number from 0 to 30");
  });

  it.each<[string, string, string | null]>([
    ["free_trial_hours", "24", null],
    ["free_trial_hours", "1", null],
    ["free_trial_hours", "168", null],
    ["free_trial_hours", " 48 ", null],
    ["free_trial_hours", "0", TRIAL_HOURS_MESSAGE],
    ["free_trial_hours", "169", TRIAL_HOURS_MESSAGE],
    ["free_trial_hours", "-5", TRIAL_HOURS_MESSAGE],
    ["free_trial_hours", "abc", TRIAL_HOURS_MESSAGE],
    ["free_trial_hours", "1.5", TRIAL_HOURS_MESSAGE],
    ["free_trial_hours", "", TRIAL_HOURS_MESSAGE],
    ["grace_days", "3", null],
    ["grace_days", "0", null],
    ["grace_days", "30", null],
    ["grace_days", "31", GRACE_DAYS_MESSAGE],
    ["grace_days", "-1", GRACE_DAYS_MESSAGE],
    ["grace_days", "three", GRACE_DAYS_MESSAGE],
    ["grace_days", " ", GRACE_DAYS_MESSAGE],
    ["business_name", "anything", null],
    ["vat_note", "", null],
  ])("%s = %j → %s", (key, value, message) => {
    expect(lifecycleSettingError(key, value)).toBe(message);
  });
});

describe("statuses and causes", () => {
  it("has the six statuses in lifecycle order, each with a label", () => {
    expect(CLIENT_STATUSES).toEqual(["pending", "trial", "active", "grace", "expired", "suspended"]);
    expect(Object.keys(CLIENT_STATUS_LABELS)).toEqual([...CLIENT_STATUSES]);
    expect(CLIENT_STATUS_LABELS).toMatchObject({ pending: "Pending payment", grace: "Grace period" });
  });

  it("labels the eleven causes", () => {
    expect(Object.keys(CAUSE_LABELS).sort()).toEqual(
      [
        "payment-captured",
        "trial-started",
        "term-ended",
        "grace-ended",
        "admin-suspend",
        "admin-reactivate",
        "complimentary-grant",
        "refund",
        "merged-in",
        "merged-away",
        "panel-accepted",
      ].sort(),
    );
    for (const label of Object.values(CAUSE_LABELS)) expect(label).not.toBe("");
  });

  it.each([
    ["active", true],
    ["grace", true],
    ["expiring", false],
    ["inactive", false],
    ["Active", false],
    ["", false],
  ])("isClientStatus(%j) → %s", (value, ok) => {
    expect(isClientStatus(value)).toBe(ok);
  });

  it("reminds trial, active and grace clients only", () => {
    expect(WATCHING_STATUSES).toEqual(["trial", "active", "grace"]);
  });
});

describe("added time never ends in the past", () => {
  const now = new Date("2026-11-23T10:00:00Z");
  const rules = { trialHours: 24, graceDays: 3 };
  const term = (status: ClientStatus, end: string, extra: Partial<Term> = {}): Term => ({
    status,
    start: new Date("2026-01-01T10:00:00Z"),
    end: new Date(end),
    suspendedFrom: null,
    ...extra,
  });
  const endAfter = (before: Term, cause: Cause, r = rules) => {
    const outcome = applyCause(before, cause, now, r);
    if (!outcome.ok) throw new Error(outcome.reason);
    return outcome.term.end?.toISOString();
  };

  it("a stored 'active' whose grace days passed long ago (the job behind) counts from now, as a suspended one does", () => {
    expect(endAfter(term("active", "2026-10-01T10:00:00Z"), { kind: "payment-captured", months: 1 })).toBe("2026-12-23T10:00:00.000Z");
    expect(endAfter(term("grace", "2026-10-01T10:00:00Z"), { kind: "payment-captured", months: 1 })).toBe("2026-12-23T10:00:00.000Z");
  });

  it("with 30 grace days, a month paid on day 29 of grace counts from now rather than ending already", () => {
    // Ended 1 Feb, paid 2 Mar: a month from the old end (1 Mar) would already be over.
    const march = new Date("2027-03-02T10:00:00Z");
    const before = term("grace", "2027-02-01T10:00:00Z");
    const outcome = applyCause(before, { kind: "payment-captured", months: 1 }, march, { trialHours: 24, graceDays: 30 });
    expect(outcome).toMatchObject({ ok: true, term: { status: "active", end: new Date("2027-04-02T10:00:00Z") } });
  });

  it("refuses part months and odd grants instead of making a bad date", () => {
    const running = term("active", "2026-12-01T10:00:00Z");
    expect(applyCause(running, { kind: "payment-captured", months: 1.5 }, now, rules)).toEqual({
      ok: false,
      reason: "That package has no length in months to add.",
    });
    expect(applyCause(running, { kind: "complimentary-grant", days: Number.NaN }, now, rules)).toEqual({
      ok: false,
      reason: "Grant at least one day or one month.",
    });
    expect(applyCause(running, { kind: "complimentary-grant", months: 0.5 }, now, rules)).toMatchObject({ ok: false });
  });

  it("a suspended trial that pays starts its paid term now, like an unsuspended trial", () => {
    const suspendedTrial = term("suspended", "2026-11-23T20:00:00Z", { suspendedFrom: "trial", start: new Date("2026-11-22T20:00:00Z") });
    const outcome = applyCause(suspendedTrial, { kind: "payment-captured", months: 1 }, now, rules);
    expect(outcome).toMatchObject({ ok: true, term: { status: "suspended", suspendedFrom: "active", start: now } });
  });
});

describe("reminder days (the reminder_days setting)", () => {
  it.each([
    ["7,3,1,0", [7, 3, 1, 0]],
    ["0, 1, 3, 7", [7, 3, 1, 0]],
    ["14", [14]],
    ["60,30,0", [60, 30, 0]],
  ])("reads %s as %j", (text, days) => expect(parseReminderDays(text)).toEqual(days));

  it.each(["", "7,7", "61", "-1", "7;3", "1.5", "a", "1,2,3,4,5,6,7"])("refuses %j", (text) => {
    expect(parseReminderDays(text)).toBeNull();
    expect(lifecycleSettingError("reminder_days", text)).toBe(REMINDER_DAYS_MESSAGE);
  });

  it("falls back to 7, 3, 1 and 0 days when the setting is missing or unreadable", () => {
    expect(reminderDays({})).toEqual([7, 3, 1, 0]);
    expect(reminderDays({ reminder_days: "nonsense" })).toEqual([7, 3, 1, 0]);
    expect(reminderDays({ reminder_days: "5,2" })).toEqual([5, 2]);
  });
});
