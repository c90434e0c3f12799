// The one-tap pay link's token (issue 27 item 4): `${publicUrl}/pay/<token>`, carried by the
// trial-ending, trial-ended and renewal reminders so a customer with no portal password pays in one
// tap. Stateless: the token binds the client, the package and an expiry, and is signed with an
// HMAC under a key derived from the secrets key (lib/secret-box.ts `purposeKey`), so a changed id,
// a changed expiry or a made-up token fails the check; nothing is stored to make or read one.
// Bytes: version (1) ‖ client uuid (16) ‖ package uuid (16) ‖ expiry in Unix seconds (4) ‖ the
// first 16 bytes of HMAC-SHA256 over the first 37, in base64url: 71 characters.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Db } from "@/server/db/client";
import { purposeKey } from "@/server/lib/secret-box";

const VERSION = 1;
const BODY_BYTES = 1 + 16 + 16 + 4;
const MAC_BYTES = 16;
const DAY_MS = 86_400_000;
/** How long a pay link works after it is made: past a trial's end and the days after it. */
export const PAY_LINK_DAYS = 14;
const KEY_PURPOSE = "pay-link-v1";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PayLinkClaims {
  clientId: string;
  packageId: string;
  expiresAt: Date;
}

export type PayLinkCheck = { ok: true; claims: PayLinkClaims } | { ok: false; reason: "invalid" | "expired"; claims?: PayLinkClaims };

/** The pay links' signing key (derived; read it outside a transaction on PGlite). */
export function payLinkKey(db: Pick<Db, "insert" | "select">): Promise<Buffer> {
  return purposeKey(db, KEY_PURPOSE);
}

function uuidBytes(id: string): Buffer {
  if (!UUID.test(id)) throw new Error(`not a uuid: ${id}`);
  return Buffer.from(id.replace(/-/g, ""), "hex");
}

function uuidText(bytes: Buffer): string {
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const macOf = (key: Buffer, body: Buffer) => createHmac("sha256", key).update(body).digest().subarray(0, MAC_BYTES);

/** A token for this client and package, working until `expiresAt` (to the second). */
export function signPayLink(key: Buffer, claims: PayLinkClaims): string {
  const body = Buffer.alloc(BODY_BYTES);
  body.writeUInt8(VERSION, 0);
  uuidBytes(claims.clientId).copy(body, 1);
  uuidBytes(claims.packageId).copy(body, 17);
  body.writeUInt32BE(Math.floor(claims.expiresAt.getTime() / 1000), 33);
  return Buffer.concat([body, macOf(key, body)]).toString("base64url");
}

/**
 * What a token says, once its signature holds; `expired` only for a genuine token past its
 * expiry (the claims come with it), `invalid` for anything malformed, made up or altered.
 */
export function verifyPayLink(key: Buffer, token: string, now: Date = new Date()): PayLinkCheck {
  if (typeof token !== "string" || !/^[A-Za-z0-9_-]+$/.test(token)) return { ok: false, reason: "invalid" };
  const raw = Buffer.from(token, "base64url");
  // base64url round trip: a token with extra or changed padding bits is not the one we made
  if (raw.length !== BODY_BYTES + MAC_BYTES || raw.toString("base64url") !== token) return { ok: false, reason: "invalid" };
  const body = raw.subarray(0, BODY_BYTES);
  if (body.readUInt8(0) !== VERSION || !timingSafeEqual(raw.subarray(BODY_BYTES), macOf(key, body)))
    return { ok: false, reason: "invalid" };
  const claims: PayLinkClaims = {
    clientId: uuidText(body.subarray(1, 17)),
    packageId: uuidText(body.subarray(17, 33)),
    expiresAt: new Date(body.readUInt32BE(33) * 1000),
  };
  if (claims.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: "expired", claims };
  return { ok: true, claims };
}

/** Makes pay links with one key (read once, before the transactions that queue the messages). */
export type PayLinkMaker = (clientId: string, packageId: string) => string;

export function payLinkMaker(publicUrl: string, key: Buffer, now: Date = new Date()): PayLinkMaker {
  const expiresAt = new Date(now.getTime() + PAY_LINK_DAYS * DAY_MS);
  return (clientId, packageId) => `${publicUrl}/pay/${signPayLink(key, { clientId, packageId, expiresAt })}`;
}
