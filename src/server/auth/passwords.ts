// Password hashing with scrypt (node:crypto): "scrypt$N$r$p$salt$hash", all base64url. The cost
// is OWASP's (N = 2^17, r = 8, p = 1) unless PASSWORD_HASH_COST says otherwise (buildApp calls
// configurePasswordCost); a hash made at a lower cost is raised on the next sign-in
// (needsRehash), so old accounts catch up without a reset. Every hash waits in one bounded
// queue (hash-queue.ts), so sign-ins never take the whole thread pool from file reads.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from "node:crypto";
import { defaultHashConcurrency, HashQueue } from "./hash-queue";

const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** The costs a stored hash may name: anything else is refused rather than run. */
const MIN_LOG2_N = 10;
const MAX_LOG2_N = 20;

let currentN = 2 ** 17;
let queue = new HashQueue(defaultHashConcurrency(), 32);

/**
 * How many hashes run at once (0: defaultHashConcurrency) and how many sign-ins may wait
 * behind them before one is refused (503). buildApp calls it with PASSWORD_HASH_CONCURRENCY
 * and PASSWORD_HASH_QUEUE.
 */
export function configurePasswordQueue(concurrency: number, maxWaiting: number): void {
  queue = new HashQueue(concurrency > 0 ? concurrency : defaultHashConcurrency(), maxWaiting);
}

/** the queue in use (tests look at its load) */
export function passwordQueue(): HashQueue {
  return queue;
}

/** Sets the cost new hashes get, as a power of two (14..20). */
export function configurePasswordCost(log2N: number): void {
  if (!Number.isInteger(log2N) || log2N < 14 || log2N > MAX_LOG2_N) throw new Error(`PASSWORD_HASH_COST must be 14..${MAX_LOG2_N}`);
  currentN = 2 ** log2N;
}

/** scrypt through the queue; `refuse`: a full queue answers 503 instead of waiting (sign-ins). */
function scrypt(password: string, salt: Buffer, n: number, r: number, p: number, refuse = false): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes (128 MiB at 2^17): allow twice that.
  const maxmem = 256 * n * r + 1024 * 1024;
  return queue.run(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scryptCallback(password, salt, KEY_LENGTH, { N: n, r, p, maxmem }, (err, key) => (err ? reject(err) : resolve(key))),
      ),
    { refuse },
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, currentN, R, P);
  return ["scrypt", currentN, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

function parse(stored: string): { n: number; r: number; p: number; salt: string; hash: string } | null {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  const cost = Math.log2(Number(n));
  if (scheme !== "scrypt" || !salt || !hash || !Number.isInteger(cost) || cost < MIN_LOG2_N || cost > MAX_LOG2_N) return null;
  if (Number(r) !== R || Number(p) !== P) return null;
  return { n: Number(n), r: R, p: P, salt, hash };
}

/**
 * Whether `password` matches `stored`. Anyone may cause this (a sign-in), so when the queue is
 * full it throws a 503 AppError with Retry-After rather than wait behind everyone else.
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = parse(stored);
  if (!parts) return false;
  const expected = Buffer.from(parts.hash, "base64url");
  const actual = await scrypt(password, Buffer.from(parts.salt, "base64url"), parts.n, parts.r, parts.p, true);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a stored hash is below the cost new hashes get (rehash it after a successful sign-in). */
export function needsRehash(stored: string): boolean {
  const parts = parse(stored);
  return !parts || parts.n < currentN;
}

/** A readable random password: 16 characters without look-alikes. */
export function generatePassword(length = 16): string {
  const alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
