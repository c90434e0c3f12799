// Sign-in limits that an attacker cannot turn against the owner (OWASP, "Slow down online
// guessing attacks with device cookies"; docs/architecture.md, "Sessions and who may do what"):
//  - per address: LOGIN_LIMIT_PER_MIN attempts in any 60 seconds, whoever is guessed;
//  - per account: after LOGIN_LIMIT_PER_MIN failed attempts in 60 seconds, browsers that have not
//    signed in to that account before wait (429). A browser that has — it holds a device cookie
//    for the account, sealed with the server's key (lib/secret-box.ts) — is not held back by
//    those failures: it counts only its own, and is locked out on its own when they pile up.
// A successful sign-in (re)issues the device cookie. Only failures count towards the account.
// Every attempt is reserved before the password is checked — one atomic, conditional increment
// per address and per account/device (lib/rate-limit.ts `reserve`) — so N simultaneous guesses
// check at most the limit (issue 30: the count used to be read first and written after the
// check, and 25 concurrent guesses were all checked). The minute slides (issue 46: calendar
// minutes let five guesses at :59.5 and five more at :00.5 all be checked). A failure keeps its
// reservation; a success gives the account's back (so only failures count towards it).
import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { tooManyRequests } from "@/server/lib/errors";
import { clientIp, refund, reserve, reset } from "@/server/lib/rate-limit";
import { open, seal } from "@/server/lib/secret-box";
import { secureCookies } from "./sessions";

export type LoginKind = "admin" | "client" | "partner";
const DEVICE_TTL_DAYS = 90;
export const deviceCookieName = (kind: LoginKind) => `sd_${kind}_device`;

interface Device {
  kind: LoginKind;
  account: string;
  nonce: string;
  expires: number;
}

async function readDevice(app: FastifyInstance, value: string | undefined, kind: LoginKind, account: string): Promise<Device | null> {
  if (!value || value.length > 1000) return null;
  try {
    const device = JSON.parse(await open(app.db, value)) as Partial<Device> & { purpose?: string };
    if (device.purpose !== "login-device" || device.kind !== kind || device.account !== account) return null;
    if (typeof device.nonce !== "string" || typeof device.expires !== "number" || device.expires < Date.now()) return null;
    return device as Device;
  } catch {
    return null;
  }
}

export interface LoginAttempt {
  /** a wrong password: counts against this browser's device, or else against the account */
  failed(): Promise<void>;
  /** the right password: clears the account's count (for a new browser) and issues the device cookie */
  succeeded(): Promise<void>;
}

/**
 * Checks the limits before the password is checked (429 when this browser must wait) and
 * returns what to do with the outcome. `account` is the login name as the person typed it,
 * normalised (lower case); empty when the body had none.
 */
export async function startLogin(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  { kind, account, message }: { kind: LoginKind; account: string; message: string },
): Promise<LoginAttempt> {
  const limit = app.config.LOGIN_LIMIT_PER_MIN;
  const now = new Date();
  const byAddress = await reserve(app.db, `login:${kind}:ip:${clientIp(request)}`, limit, now);
  if (!byAddress.allowed) throw tooManyRequests(byAddress.retryAfterSeconds, message);
  const accountKey = `login:${kind}:acct:${account}`;
  const device = account ? await readDevice(app, request.cookies?.[deviceCookieName(kind)], kind, account) : null;
  const failures = device ? `login:${kind}:device:${device.nonce}` : accountKey;
  if (account) {
    // Reserved now, kept if the password is wrong (or the request fails on the way).
    const byAccount = await reserve(app.db, failures, limit, now);
    if (!byAccount.allowed) throw tooManyRequests(byAccount.retryAfterSeconds, message);
  }
  return {
    async failed() {
      // The attempt was counted when it was reserved in startLogin.
    },
    async succeeded() {
      if (!device) await reset(app.db, accountKey);
      else await refund(app.db, failures, now);
      const fresh: Device & { purpose: string } = {
        purpose: "login-device",
        kind,
        account,
        nonce: device?.nonce ?? randomBytes(16).toString("base64url"),
        expires: Date.now() + DEVICE_TTL_DAYS * 86_400_000,
      };
      reply.setCookie(deviceCookieName(kind), await seal(app.db, JSON.stringify(fresh)), {
        httpOnly: true,
        sameSite: "strict",
        path: `/api/${kind}/login`,
        secure: secureCookies(app.config),
        maxAge: DEVICE_TTL_DAYS * 86_400,
      });
    },
  };
}
