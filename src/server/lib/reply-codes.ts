// Proof by writing to us (issue 41): a reply code is sent nowhere; the page offers it in a wa.me
// link to the shop's number, and a message from the number being proved holding it proves the
// number (lib/verification.ts, the header, says how it fits with the typed codes).
import { timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull, like, sql } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { verificationCodes } from "@/server/db/schema";
import type { BusinessProfile } from "./business";
import {
  type CodeCheck,
  type CodePurpose,
  type CodeRow,
  codeHash,
  consumeCode,
  expireLiveCodes,
  newCode,
  newestLiveCode,
  type ReplyPurpose,
  type Subject,
  storeCode,
  type Tx,
} from "./verification";

/** Whether a message written to the shop reaches us: the Cloud API and its signed webhook are set up. */
export function replyWebhookReady(config: {
  WHATSAPP_TOKEN?: string;
  WHATSAPP_PHONE_NUMBER_ID?: string;
  WHATSAPP_APP_SECRET?: string;
}): boolean {
  return Boolean(config.WHATSAPP_TOKEN && config.WHATSAPP_PHONE_NUMBER_ID && config.WHATSAPP_APP_SECRET);
}

/** The wa.me link that writes `code` to the shop's number: the words say what it is. */
export function replyLink(business: BusinessProfile, code: string): string {
  return `https://wa.me/${business.whatsappNumber.replace(/\D/g, "")}?text=${encodeURIComponent(`My ${business.companyName} code: ${code}`)}`;
}

/**
 * A reply code for `number` (stored form) that proves it for `purpose`, voiding the person's older
 * one of the same purpose; answers its wa.me link, or null when the shop has no WhatsApp number or
 * the webhook is not set up (then nobody could write it to us).
 */
export async function issueReplyCode(
  db: Db,
  business: BusinessProfile,
  ready: boolean,
  input: Subject & {
    purpose: CodePurpose;
    number: string;
    requester: string;
    payload?: Record<string, string>;
    now?: Date;
    /** the code, when the link holding it was already given out (identify answers before it looks anyone up) */
    code?: string;
  },
): Promise<string | null> {
  if (!ready || !business.whatsappNumber.replace(/\D/g, "")) return null;
  const now = input.now ?? new Date();
  const purpose: ReplyPurpose = `reply:${input.purpose}`;
  const code = input.code ?? newCode();
  await db.transaction(async (tx) => {
    await expireLiveCodes(tx, input, purpose, now);
    await storeCode(tx, code, now, {
      purpose,
      channel: "whatsapp",
      recipient: input.number.replace(/\D/g, ""),
      clientId: input.clientId,
      leadId: input.leadId,
      requester: input.requester,
      payload: input.payload,
    });
  });
  return replyLink(business, code);
}

/**
 * The live reply code a message from `number` holds, if any (each six-digit run in `text` is
 * tried against each of that number's live reply codes). Only a row: replyProof uses it.
 */
export async function findReplyCode(
  db: Pick<Db, "select" | "insert">,
  number: string,
  text: string,
  now = new Date(),
): Promise<CodeRow | null> {
  const tried = [...new Set(text.match(/(?<!\d)\d{6}(?!\d)/g) ?? [])].slice(0, 5);
  if (!tried.length) return null;
  const rows = await db
    .select()
    .from(verificationCodes)
    .where(
      and(
        like(verificationCodes.purpose, "reply:%"),
        eq(verificationCodes.recipient, number.replace(/\D/g, "")),
        isNull(verificationCodes.used_at),
        gt(verificationCodes.expires_at, now),
      ),
    )
    .orderBy(desc(verificationCodes.created_at))
    .limit(10);
  for (const row of rows) {
    const expected = Buffer.from(row.code_hash, "hex");
    for (const code of tried) {
      const given = Buffer.from(await codeHash(db, row.id, code), "hex");
      if (expected.length === given.length && timingSafeEqual(expected, given)) return row;
    }
  }
  return null;
}

/**
 * The proof step a flow runs inside its own transaction for a reply code found by findReplyCode:
 * marks it used there, once (a replayed webhook finds it used: 'none').
 */
export function replyProof(id: string, now = new Date()): (tx: Tx) => Promise<CodeCheck> {
  return async (tx) => {
    const [used] = await tx
      .update(verificationCodes)
      .set({ used_at: now })
      .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.used_at), gt(verificationCodes.expires_at, now)))
      .returning();
    return used ? { ok: true, row: used } : { ok: false, reason: "none" };
  };
}

/** The proof step for a code typed into the page (consumeCode). */
export function typedProof(subject: Subject, purpose: CodePurpose, code: string, now = new Date()): (tx: Tx) => Promise<CodeCheck> {
  return (tx) => consumeCode(tx, { ...subject, purpose, code, now });
}

/**
 * A reply code proved by the message but kept for the page to use (the payer's: the payment is
 * made by the browser, which holds the code from its own link): marked proved once, still live.
 */
export async function markReplyProved(db: Pick<Db, "update">, id: string, now = new Date()): Promise<boolean> {
  const proved = await db
    .update(verificationCodes)
    .set({ payload: sql`${verificationCodes.payload} || ${JSON.stringify({ proved_at: now.toISOString() })}::jsonb` })
    .where(
      and(
        eq(verificationCodes.id, id),
        isNull(verificationCodes.used_at),
        gt(verificationCodes.expires_at, now),
        sql`not (${verificationCodes.payload} ? 'proved_at')`,
      ),
    )
    .returning({ id: verificationCodes.id });
  return proved.length > 0;
}

/**
 * `code` as a reply code of the person's for `purpose`: used now when the message proved it
 * ({ok: true}), 'waiting' when it is theirs but no message has proved it yet, null when it is not
 * one (then it is a typed code: consumeCode).
 */
export async function consumeProvedReply(
  tx: Tx,
  input: Subject & { purpose: CodePurpose; code: string; now?: Date },
): Promise<CodeCheck | "waiting" | null> {
  const now = input.now ?? new Date();
  const row = await newestLiveCode(tx, input, `reply:${input.purpose}`, now);
  if (!row) return null;
  const expected = Buffer.from(row.code_hash, "hex");
  const given = Buffer.from(await codeHash(tx, row.id, input.code.trim()), "hex");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (!row.payload.proved_at) return "waiting";
  return replyProof(row.id, now)(tx);
}
