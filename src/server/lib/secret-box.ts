// Secrets the outbox must carry but never keep readable (a password-reset link, a set-password
// link, a password): AES-256-GCM under a key derived from SECRETS_KEY, or, when that is unset,
// under a random key kept in the private_outbox_secret_key site setting (made on first use, shared
// by every process on the database). Sealed text: v1.<env|db>.<iv>.<tag>.<ciphertext>, base64url.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/server/db/client";
import { siteSettings } from "@/server/db/schema";

export const SECRET_KEY_SETTING = "private_outbox_secret_key";
const AAD = Buffer.from("streamdesk-outbox-secret");

type Executor = Pick<Db, "insert" | "select">;
type Source = "env" | "db";

/** Set once by buildApp from the config; null: the database's own key. */
let envKey: Buffer | null = null;

export function configureSecretsKey(secret: string | undefined): void {
  envKey = secret ? Buffer.from(hkdfSync("sha256", secret, "streamdesk", "outbox-secret-v1", 32)) : null;
}

async function databaseKey(executor: Executor): Promise<Buffer> {
  const read = async () =>
    (await executor.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, SECRET_KEY_SETTING)))[0]?.value;
  let value = await read();
  if (!value) {
    await executor
      .insert(siteSettings)
      .values({
        key: SECRET_KEY_SETTING,
        value: randomBytes(32).toString("base64url"),
        description: "Encrypts secrets in the outbox (set SECRETS_KEY to keep the key out of the database).",
      })
      .onConflictDoNothing({ target: siteSettings.key });
    value = await read();
  }
  const key = Buffer.from(value ?? "", "base64url");
  if (key.length !== 32) throw new Error(`${SECRET_KEY_SETTING} is not a 32-byte key`);
  return key;
}

async function keyFor(executor: Executor, source: Source): Promise<Buffer> {
  if (source === "db") return databaseKey(executor);
  if (!envKey) throw new Error("This secret was sealed with SECRETS_KEY, which is not set now.");
  return envKey;
}

export async function seal(executor: Executor, plain: string): Promise<string> {
  const source: Source = envKey ? "env" : "db";
  const key = await keyFor(executor, source);
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(AAD);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", source, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), body.toString("base64url")].join(".");
}

export async function open(executor: Executor, sealed: string): Promise<string> {
  const [version, source, iv, tag, body] = sealed.split(".");
  if (version !== "v1" || (source !== "env" && source !== "db") || !iv || !tag || body === undefined) {
    throw new Error("The sealed secret is not in a form this server reads.");
  }
  const key = await keyFor(executor, source);
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(AAD);
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new Error(
      source === "env"
        ? "The secret could not be decrypted: SECRETS_KEY has changed since it was queued."
        : "The secret could not be decrypted: the database's outbox key has changed since it was queued.",
    );
  }
}

/**
 * A key of its own for one purpose (e.g. "pay-link-v1": the signed one-tap pay links), derived
 * (HKDF) from the same key, so the links need no second secret store and change with SECRETS_KEY.
 */
export async function purposeKey(executor: Executor, purpose: string): Promise<Buffer> {
  const key = await keyFor(executor, envKey ? "env" : "db");
  return Buffer.from(hkdfSync("sha256", key, "streamdesk", purpose, 32));
}

/**
 * A keyed hash (HMAC-SHA256 under the same key, hex) of a short secret such as a six-digit code:
 * a copy of the database alone cannot try the million codes against it when SECRETS_KEY is set.
 */
export async function keyedDigest(executor: Executor, text: string): Promise<string> {
  const key = await keyFor(executor, envKey ? "env" : "db");
  return createHmac("sha256", key).update(`verification:${text}`).digest("hex");
}
