// One-time codes: proof that a person holds a WhatsApp number or an e-mail address
// (docs/architecture.md, "Identity"). The one module that makes and checks them:
//   - six digits, valid CODE_MINUTES, used once, void after MAX_TRIES wrong tries;
//   - kept only as a keyed hash (secret-box's keyedDigest); the outbox carries the code sealed;
//   - limits a stranger cannot turn against the person (issue 46 item 2), counted under locks so
//     two requests at once cannot both slip under them:
//       * PER_REQUESTER_PER_HOUR codes an hour for one requester (a signed-in client, a
//         connection, or for a free trial its network), and PER_RECIPIENT_PER_HOUR to one
//         address or person *from that requester*: past either, that requester gets a 429;
//       * a live code (sent, unused, not voided) is re-used when it is asked for again within its
//         life, from anywhere: nothing new is sent and the code that already arrived still works,
//         so a stranger's requests send at most one message per CODE_MINUTES;
//       * PER_NUMBER_PER_HOUR sends an hour to one address or person from everyone together:
//         past it a request is answered as if sent (the caller says "we sent a code") and nothing
//         is sent, nor is the live code voided. A requester the person has proved a code from
//         before (their own device or connection) and a signed-in client asking for themselves
//         are not held by it, so strangers filling it cannot lock the person out;
//       * WhatsApp code messages are capped per South African day shop-wide
//         (whatsapp_code_daily_cap, shared/code-limits.ts): past it codeRoute offers e-mail only
//         and the owner is alerted once that day; issueCode counts again under one shop-wide
//         lock (underDailyCap), so two processes cannot both take the day's last place;
//   - a new code voids the older ones of the same purpose for the same person;
//   - sent through the outbox only where it arrives now (codeRoute, decided when it is issued):
//     WhatsApp when the Cloud API is set up and either the authentication template for
//     VERIFICATION_KIND is set or the number wrote to us within the 24-hour window (then free
//     text); else e-mail, when there is an address on the path. Never the owner's queue: a code
//     that waits for a person expires before it is read. No route at all is the caller's to say
//     (noCodeRoute's words), with nothing written.
//   - the other way round (issue 41, "verify by writing to us"): a reply code is sent nowhere; the
//     page offers it in a wa.me link to the shop's number, and a message from the number being
//     proved (Meta signs the webhook, so Meta vouches for the sender) holding it proves the number.
//     Its purpose is `reply:<what it proves>`, bound to that number as its recipient; wrong texts
//     are not counted (only that number can write them), and it is outside the code limits
//     (nothing is sent, so nobody can be flooded with it).
// Where a code can go and the daily cap are in code-route.ts; reply codes in reply-codes.ts.
import { randomInt, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull, notLike, or, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { verificationCodes } from "@/server/db/schema";
import { VERIFICATION_CODE_MESSAGES } from "@/shared/schemas";
import type { BusinessProfile } from "./business";
import { VERIFICATION_KIND, whatsappCodesCapped, whatsappCodeWay } from "./code-route";
import { AppError, badRequest } from "./errors";
import { type Channel, enqueue, SECRET_PLACEHOLDER } from "./outbox";
import { keyedDigest } from "./secret-box";

export { VERIFICATION_KIND };

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const CODE_MINUTES = 10;
export const MAX_TRIES = 5;
/** codes an hour to one address or person from one requester */
export const PER_RECIPIENT_PER_HOUR = 3;
/** codes an hour for one requester, whoever they go to */
export const PER_REQUESTER_PER_HOUR = 10;
/** codes sent an hour to one address or person from all requesters together (past it: answered, not sent) */
export const PER_NUMBER_PER_HOUR = 6;
/** how far back a requester's proof of a person makes it theirs (not held by PER_NUMBER_PER_HOUR) */
const OWN_REQUESTER_DAYS = 90;

export type CodePurpose = "contact-change" | "payment-identify" | "trial";
/** A code proved by writing it to us on WhatsApp from the number (replyLink), for the same acts. */
export type ReplyPurpose = `reply:${CodePurpose}`;
export type Purpose = CodePurpose | ReplyPurpose;
export type CodeRow = typeof verificationCodes.$inferSelect;

export interface Destination {
  channel: Channel;
  /** an e-mail address, or a number in its stored form (27…) */
  recipient: string;
}

export interface IssueInput {
  purpose: Purpose;
  /** where the code goes: one or more of the person's channels, all with the same code */
  to: Destination[];
  /** the client the code speaks for */
  clientId?: string | null;
  /** or the lead, when there is no client yet (an instant free trial): exactly one of the two */
  leadId?: string | null;
  /** who asked: 'client:<id>', 'ip:<address>' or 'network:<prefix>' (a free trial: its /24 or /48) */
  requester: string;
  /** what confirming it does (a contact change's new address) */
  payload?: Record<string, string>;
  /** the name to greet, first name only */
  name?: string;
  /**
   * stored and counted like any code (the same limits, locks and outcome), queued nowhere: a free
   * trial asked for with a client's number gets an answer like anyone's, and no code (issue 46)
   */
  unsent?: boolean;
  now?: Date;
}

export const TOO_MANY_CODES_MESSAGE = "We have sent too many codes there in the last hour. Please wait a while and try again.";

/** Whose code it is: a client, or a lead that is not a client yet. */
export type Subject = { clientId?: string | null; leadId?: string | null };

function subjectKey(subject: Subject): string {
  if (subject.clientId) return `client:${subject.clientId}`;
  if (subject.leadId) return `lead:${subject.leadId}`;
  throw new Error("A verification code needs a client or a lead.");
}

export function subjectIs(subject: Subject) {
  subjectKey(subject);
  return subject.clientId ? eq(verificationCodes.client_id, subject.clientId) : eq(verificationCodes.lead_id, subject.leadId as string);
}

/** A new code replaces the subject's live codes for the same purpose: they expire now, unused. */
export function expireLiveCodes(tx: Tx, subject: Subject, purpose: string, now: Date) {
  return tx
    .update(verificationCodes)
    .set({ expires_at: now })
    .where(
      and(
        subjectIs(subject),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.used_at),
        gt(verificationCodes.expires_at, now),
      ),
    );
}

/**
 * The one place a code row is written: valid CODE_MINUTES from `now`, kept only as its keyed hash
 * (the row's id is part of the key, so the hash is set once the row has one).
 */
export async function storeCode(
  tx: Tx,
  code: string,
  now: Date,
  row: {
    purpose: string;
    channel: string;
    recipient: string;
    clientId?: string | null;
    leadId?: string | null;
    requester: string;
    payload?: Record<string, string>;
  },
): Promise<{ id: string }> {
  const [inserted] = await tx
    .insert(verificationCodes)
    .values({
      purpose: row.purpose,
      channel: row.channel,
      recipient: row.recipient,
      client_id: row.clientId ?? null,
      lead_id: row.leadId ?? null,
      requester: row.requester,
      payload: row.payload ?? {},
      code_hash: "",
      expires_at: new Date(now.getTime() + CODE_MINUTES * 60_000),
      created_at: now,
    })
    .returning({ id: verificationCodes.id });
  await tx
    .update(verificationCodes)
    .set({ code_hash: await codeHash(tx, inserted.id, code) })
    .where(eq(verificationCodes.id, inserted.id));
  return inserted;
}

/** A new six-digit code ('000000'..'999999'). */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/** The words of a code message, on either channel (no channel-specific words: both are true anywhere). */
export function codeMessage(business: BusinessProfile, purpose: Purpose, name: string): { subject: string; body: string } {
  const what =
    purpose === "contact-change"
      ? "to confirm your new contact details"
      : purpose === "trial"
        ? "to start your free trial"
        : "to prove it is you and pay on your account";
  const greeting = name ? `Hi ${name.split(/\s+/)[0]},` : "Hi,";
  return {
    subject: `Your ${business.companyName} code`,
    body: [
      greeting,
      "",
      `Your ${business.companyName} code is ${SECRET_PLACEHOLDER}. Enter it ${what}. It works for ${CODE_MINUTES} minutes, once.`,
      "",
      `If you did not ask for it, ignore this message: nothing changes without the code. ${business.companyName} will never ask you for it.`,
    ].join("\n"),
  };
}

/** Rows sent (not reply codes, which go nowhere) to these recipients, or to this person for this purpose. */
function sentTo(ask: Subject & { purpose: Purpose; recipients: string[] }) {
  const samePerson = ask.clientId || ask.leadId ? and(subjectIs(ask), eq(verificationCodes.purpose, ask.purpose)) : undefined;
  return and(notLike(verificationCodes.purpose, "reply:%"), or(sql`${verificationCodes.recipient} in ${ask.recipients}`, samePerson));
}

/**
 * Whether another code would pass this requester's own limits of the last hour: to these
 * recipients or this person (when there is one yet) from this requester, or for this requester
 * at all. Past them that requester gets a 429; nobody else is held back by them. issueCode asks
 * under its locks; a caller may ask first, before it saves anything the code is for.
 */
export async function tooManyCodes(
  db: Pick<Db, "select">,
  ask: Subject & { purpose: Purpose; recipients: string[]; requester: string; now?: Date },
): Promise<boolean> {
  const hourAgo = new Date((ask.now ?? new Date()).getTime() - 3_600_000);
  const byRequester = and(gt(verificationCodes.created_at, hourAgo), eq(verificationCodes.requester, ask.requester));
  const [perRecipient] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(verificationCodes)
    .where(and(byRequester, sentTo(ask)));
  const [perRequester] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(verificationCodes)
    .where(and(byRequester, notLike(verificationCodes.purpose, "reply:%")));
  return perRecipient.n >= PER_RECIPIENT_PER_HOUR || perRequester.n >= PER_REQUESTER_PER_HOUR;
}

/** The 429 past a code limit, on `field` when a form has one that decides it (the number or address). */
export function tooManyCodesRefusal(field?: string): AppError {
  const fields = field ? { [field]: TOO_MANY_CODES_MESSAGE } : undefined;
  return new AppError(429, "rate_limited", TOO_MANY_CODES_MESSAGE, fields, { "retry-after": "3600" });
}

/**
 * The person's live code for this purpose that went to the same place for the same thing (a
 * contact change's new address is its payload), if any: still unused, not expired, not voided.
 */
async function liveCode(tx: Tx, input: IssueInput, recipients: string[], now: Date): Promise<{ id: string } | null> {
  const [row] = await tx
    .select({ id: verificationCodes.id })
    .from(verificationCodes)
    .where(
      and(
        subjectIs(input),
        eq(verificationCodes.purpose, input.purpose),
        eq(verificationCodes.recipient, recipients[0]),
        sql`${verificationCodes.payload} = ${JSON.stringify(input.payload ?? {})}::jsonb`,
        isNull(verificationCodes.used_at),
        gt(verificationCodes.expires_at, now),
        sql`${verificationCodes.attempts} < ${MAX_TRIES}`,
      ),
    )
    .limit(1);
  return row ?? null;
}

/**
 * Whether the requester is the person's own: a signed-in client asking for themselves, or a
 * requester a code of theirs was proved from (OWN_REQUESTER_DAYS), which a stranger cannot be.
 */
async function ownRequester(tx: Tx, input: IssueInput, recipients: string[], now: Date): Promise<boolean> {
  if (input.clientId && input.requester === `client:${input.clientId}`) return true;
  const since = new Date(now.getTime() - OWN_REQUESTER_DAYS * 86_400_000);
  const samePerson = input.clientId || input.leadId ? subjectIs(input) : undefined;
  const [proved] = await tx
    .select({ id: verificationCodes.id })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.requester, input.requester),
        gt(verificationCodes.used_at, since),
        or(sql`${verificationCodes.recipient} in ${recipients}`, samePerson),
      ),
    )
    .limit(1);
  return Boolean(proved);
}

/**
 * What issueCode did: `sent` a new code; `reused` the live one already sent (nothing new goes: the
 * one that arrived still works); `held` nothing sent because the place's hourly cap is full (the
 * caller answers as if sent, so a stranger learns nothing and the person's live code, if any, stays);
 * `capped` nothing sent nor stored because the day's WhatsApp cap filled between codeRoute and
 * here (another process took its last place): the caller routes again, and codeRoute now answers
 * what is left (e-mail, writing to us, or nothing), so its answer stays true.
 */
export type IssueOutcome = "sent" | "reused" | "held" | "capped";

/**
 * Makes a code for `input.clientId` (or `input.leadId`), voids that person's older codes of the same purpose, and
 * queues it to each destination, all in one transaction; or re-uses or holds (IssueOutcome). 429 past the
 * requester's own limits (nothing sent). `to` must come from codeRoute: this sends where it is told.
 */
export async function issueCode(db: Db, business: BusinessProfile, input: IssueInput): Promise<IssueOutcome> {
  const now = input.now ?? new Date();
  const recipients = input.to.map((d) => d.recipient);
  return db.transaction(async (tx) => {
    // Serialise issuing per person and per requester: the counts below then hold under races.
    for (const key of [
      `verification:${subjectKey(input)}`,
      `verification:${input.requester}`,
      ...recipients.map((r) => `verification:${r}`),
    ].sort()) {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
    }
    if (await tooManyCodes(tx, { ...input, recipients, now })) throw tooManyCodesRefusal();
    if (await liveCode(tx, input, recipients, now)) return "reused";
    const hourAgo = new Date(now.getTime() - 3_600_000);
    const [perNumber] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(verificationCodes)
      .where(and(gt(verificationCodes.created_at, hourAgo), sentTo({ ...input, recipients })));
    if (perNumber.n >= PER_NUMBER_PER_HOUR && !(await ownRequester(tx, input, recipients, now))) return "held";
    const to = input.unsent ? input.to : await underDailyCap(tx, input.to, now);
    if (!to.length) return "capped";
    await expireLiveCodes(tx, input, input.purpose, now);
    const code = newCode();
    const row = await storeCode(tx, code, now, {
      purpose: input.purpose,
      channel: to[0].channel,
      recipient: to[0].recipient,
      clientId: input.clientId,
      leadId: input.leadId,
      requester: input.requester,
      payload: input.payload,
    });
    const message = codeMessage(business, input.purpose, input.name ?? "");
    for (const dest of input.unsent ? [] : to) {
      await enqueue(tx, {
        channel: dest.channel,
        recipient: dest.recipient,
        subject: dest.channel === "email" ? message.subject : undefined,
        body: message.body,
        kind: VERIFICATION_KIND,
        secret: code,
        vars: { code_minutes: String(CODE_MINUTES) },
        client_id: input.clientId ?? null,
        lead_id: input.leadId ?? null,
        dedupe_key: `verification:${row.id}:${dest.channel}`,
      });
    }
    return "sent" as const;
  });
}

/**
 * `to` less the numbers a code would reach by the paid template once the day's WhatsApp cap is
 * reached. Counted under one shop-wide lock held to the end of the issuing transaction, so the
 * count and the code it lets through commit together (codeRoute's own check, before, is unlocked).
 * Taken after issueCode's sorted locks and before nothing else: no deadlock. A number here came
 * through codeRoute, so the Cloud API is set up.
 */
async function underDailyCap(tx: Tx, to: Destination[], now: Date): Promise<Destination[]> {
  const kept: Destination[] = [];
  for (const dest of to) {
    if (dest.channel === "whatsapp" && (await whatsappCodeWay(tx, dest.recipient, { cloudApi: true, now })) === "template") {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('verification:whatsapp-daily-cap'))`);
      if (await whatsappCodesCapped(tx, { cloudApi: true, now })) continue;
    }
    kept.push(dest);
  }
  return kept;
}

export async function codeHash(tx: Pick<Db, "select" | "insert">, id: string, code: string): Promise<string> {
  return keyedDigest(tx, `${id}:${code}`);
}

/** The person's newest live code of `purpose` (unused, not expired), locked in `tx`. */
export async function newestLiveCode(tx: Tx, subject: Subject, purpose: Purpose, now: Date): Promise<CodeRow | undefined> {
  const [row] = await tx
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.purpose, purpose),
        subjectIs(subject),
        isNull(verificationCodes.used_at),
        gt(verificationCodes.expires_at, now),
      ),
    )
    .orderBy(desc(verificationCodes.created_at))
    .limit(1)
    .for("update");
  return row;
}

export type CodeCheck = { ok: true; row: CodeRow } | { ok: false; reason: "none" | "wrong" | "void"; triesLeft?: number };

/**
 * Checks `code` against the person's newest live code of `purpose` inside `tx` and, when it is
 * right, marks it used there (so the caller's change and the use commit together, and two
 * confirmations at once give one change). A wrong try is counted: the caller must commit `tx`
 * and only then refuse (codeRefusal), or the count would roll back.
 */
export async function consumeCode(tx: Tx, input: Subject & { purpose: Purpose; code: string; now?: Date }): Promise<CodeCheck> {
  const now = input.now ?? new Date();
  const row = await newestLiveCode(tx, input, input.purpose, now);
  if (!row) return { ok: false, reason: "none" };
  if (row.attempts >= MAX_TRIES) return { ok: false, reason: "void" };
  const expected = Buffer.from(row.code_hash, "hex");
  const given = Buffer.from(await codeHash(tx, row.id, input.code.trim()), "hex");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    const attempts = row.attempts + 1;
    await tx
      .update(verificationCodes)
      .set({ attempts, ...(attempts >= MAX_TRIES ? { expires_at: now } : {}) })
      .where(eq(verificationCodes.id, row.id));
    return attempts >= MAX_TRIES ? { ok: false, reason: "void" } : { ok: false, reason: "wrong", triesLeft: MAX_TRIES - attempts };
  }
  const [used] = await tx
    .update(verificationCodes)
    .set({ used_at: now })
    .where(and(eq(verificationCodes.id, row.id), isNull(verificationCodes.used_at)))
    .returning();
  return used ? { ok: true, row: used } : { ok: false, reason: "none" };
}

/** The 400 on `field` (default `code`) for a code that did not check out. */
export function codeRefusal(check: Exclude<CodeCheck, { ok: true }>, field = "code"): AppError {
  const message =
    check.reason === "wrong"
      ? `${VERIFICATION_CODE_MESSAGES.wrong} ${check.triesLeft === 1 ? "1 try left." : `${check.triesLeft} tries left.`}`
      : check.reason === "void"
        ? VERIFICATION_CODE_MESSAGES.void
        : VERIFICATION_CODE_MESSAGES.expired;
  return badRequest(message, { [field]: message });
}

/** Masks an address for a page: 'ending 4567', 'j***@gmail.com'. */
export function maskedDestination(to: Destination): string {
  if (to.channel === "whatsapp") return `WhatsApp ending ${to.recipient.replace(/\D/g, "").slice(-4)}`;
  const [local, domain] = to.recipient.split("@");
  return `${local.slice(0, 1)}***@${domain ?? ""}`;
}
