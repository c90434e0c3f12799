// Configuration from the environment, validated once at start-up. A bad value stops the
// server with a message that names the variable.
import { z } from "zod";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyToUndefined, z.url().optional());
const intFrom = (def: number, min: number, max: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(def));

/** The keys each payment provider needs, all or none (docs/payment-providers.md). */
const PROVIDER_KEYS = [
  ["PAYFAST_MERCHANT_ID", "PAYFAST_MERCHANT_KEY", "PAYFAST_PASSPHRASE"],
  ["OZOW_SITE_CODE", "OZOW_PRIVATE_KEY", "OZOW_API_KEY"],
  ["YOCO_SECRET_KEY", "YOCO_WEBHOOK_SECRET"],
  ["PAYSTACK_SECRET_KEY"],
] as const;

export const configSchema = z
  .object({
    NODE_ENV: z.preprocess(emptyToUndefined, z.enum(["development", "production", "test"]).default("production")),
    PORT: intFrom(8080, 0, 65535),
    /**
     * loopback by default: a fresh demo (generated admin, sandbox payments) is not for the network;
     * a shop behind nginx keeps it, a machine serving customers directly sets 0.0.0.0
     */
    HOST: z.preprocess(emptyToUndefined, z.string().default("127.0.0.1")),
    DATA_DIR: z.preprocess(emptyToUndefined, z.string().default("./data")),
    DATABASE_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
        .optional(),
    ),
    PUBLIC_URL: optionalUrl,
    ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email().optional()),
    ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().min(10, "must be at least 10 characters").optional()),
    SMTP_URL: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
        .optional(),
    ),
    MAIL_FROM: optionalString,
    IKHOKHA_APP_ID: optionalString,
    IKHOKHA_APP_SECRET: optionalString,
    IKHOKHA_ENTITY_ID: optionalString,
    IKHOKHA_API_URL: z.preprocess(emptyToUndefined, z.url().default("https://api.ikhokha.com")),
    /**
     * the local test checkout: on by default for an http:// PUBLIC_URL (a demo); with https://
     * and no card provider, card payments are off unless this is "on"
     */
    PAYMENTS_SANDBOX: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).optional()),
    /** key that signs the local sandbox provider's callbacks; random per start when unset */
    SANDBOX_SECRET: optionalString,
    /** PayFast (docs/payment-providers.md): all three set turn it on; the URL is the live host unless a sandbox's */
    PAYFAST_MERCHANT_ID: optionalString,
    PAYFAST_MERCHANT_KEY: optionalString,
    PAYFAST_PASSPHRASE: optionalString,
    PAYFAST_URL: z.preprocess(emptyToUndefined, z.url().default("https://www.payfast.co.za")),
    /** PayFast's API (refunds), signed with the passphrase */
    PAYFAST_API_URL: z.preprocess(emptyToUndefined, z.url().default("https://api.payfast.co.za")),
    /**
     * addresses an ITN may also come from besides PayFast's hosts (resolved): comma-separated IPs,
     * e.g. 127.0.0.1 for the fake in tests; "*" turns the source check off
     */
    PAYFAST_VALID_IPS: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .refine(
          (v) => v === "*" || v.split(",").every((part) => /^[0-9a-fA-F:.]+$/.test(part.trim())),
          "must be a comma-separated list of IP addresses, or *",
        )
        .optional(),
    ),
    /** Ozow instant EFT: the site code, private key (hashes) and API key (status queries) go together */
    OZOW_SITE_CODE: optionalString,
    OZOW_PRIVATE_KEY: optionalString,
    OZOW_API_KEY: optionalString,
    /** Ozow's payment page (the form posts here) and its API host (transaction status) */
    OZOW_URL: z.preprocess(emptyToUndefined, z.url().default("https://pay.ozow.com")),
    OZOW_API_URL: z.preprocess(emptyToUndefined, z.url().default("https://api.ozow.com")),
    /** Yoco Checkout: the secret key (sk_live_… / sk_test_…) and the webhook's signing secret (whsec_…) */
    YOCO_SECRET_KEY: optionalString,
    YOCO_WEBHOOK_SECRET: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/, "must be the webhook secret Yoco gave, whsec_ followed by base64")
        .optional(),
    ),
    YOCO_API_URL: z.preprocess(emptyToUndefined, z.url().default("https://payments.yoco.com")),
    /** Paystack (ZAR accounts): the secret key (sk_live_… / sk_test_…) calls the API and checks webhook signatures */
    PAYSTACK_SECRET_KEY: optionalString,
    PAYSTACK_API_URL: z.preprocess(emptyToUndefined, z.url().default("https://api.paystack.co")),
    /** the IPTV panel's reseller API: http://panel.example:port/{access_code}/reseller/index.php */
    PANEL_API_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    PANEL_API_KEY: optionalString,
    /** the customer-facing server URL of the panel (player login, M3U and EPG links) */
    PANEL_STREAM_URL: z.preprocess(emptyToUndefined, z.url().optional()),
    /** manual: each provisioning step is a task for the owner (a panel with no API access) */
    PANEL_MODE: z.preprocess(emptyToUndefined, z.enum(["auto", "manual"]).default("auto")),
    PANEL_TIMEOUT_MS: intFrom(10_000, 500, 120_000),
    WHATSAPP_TOKEN: optionalString,
    WHATSAPP_PHONE_NUMBER_ID: optionalString,
    /** the WhatsApp Business Account id (not the phone number id): where "Submit templates to Meta" creates and reads templates */
    WHATSAPP_BUSINESS_ACCOUNT_ID: optionalString,
    WHATSAPP_API_URL: z.preprocess(emptyToUndefined, z.url().default("https://graph.facebook.com/v21.0")),
    /** the Meta app's secret: checks X-Hub-Signature-256 on POST /api/whatsapp/webhook */
    WHATSAPP_APP_SECRET: optionalString,
    /** the token Meta's webhook verification (GET /api/whatsapp/webhook) must present */
    WHATSAPP_VERIFY_TOKEN: optionalString,
    /** encrypts secrets kept in the outbox (reset links); unset: a random key kept in the database */
    SECRETS_KEY: z.preprocess(emptyToUndefined, z.string().min(16, "must be at least 16 characters").optional()),
    PUBLIC_WRITE_LIMIT_PER_MIN: intFrom(20, 1, 1_000_000),
    LOGIN_LIMIT_PER_MIN: intFrom(5, 1, 1_000_000),
    /** scrypt's cost as a power of two (OWASP: 17, i.e. N = 131072); older hashes are raised on sign-in */
    PASSWORD_HASH_COST: intFrom(17, 14, 20),
    /** scrypt runs at once at most (0: the libuv pool's size less the share kept for file reads); the rest wait */
    PASSWORD_HASH_CONCURRENCY: intFrom(0, 0, 64),
    /** passwords that may wait to be hashed; beyond that a sign-in answers 503 with Retry-After */
    PASSWORD_HASH_QUEUE: intFrom(32, 0, 100_000),
    /** open change-feed streams (GET /api/events) one client address may hold; more answer 429 */
    SSE_MAX_PER_ADDRESS: intFrom(10, 1, 100_000),
    /** open change-feed streams in this process (0: from the open-file limit, leaving a fifth or more for everything else) */
    SSE_MAX_STREAMS: intFrom(0, 0, 10_000_000),
    /** a stream that has carried no change for this many seconds is ended (the browser reconnects and refetches) */
    SSE_IDLE_TIMEOUT_S: intFrom(1800, 1, 7 * 24 * 3600),
    /** seconds a client has to send a request's headers (slow-header connections are closed with 408) */
    HEADERS_TIMEOUT_S: intFrom(20, 1, 120),
    /** megabytes one address may move through the speed test in a minute (download + upload) */
    SPEEDTEST_BUDGET_MB: intFrom(300, 1, 1_000_000),
    /** how long a session lives without use, in hours; each use slides it */
    SESSION_TTL_HOURS: intFrom(12, 1, 24 * 90),
    /** where the built SPA lives */
    WEB_DIST_DIR: z.preprocess(emptyToUndefined, z.string().default("./dist/web")),
    /** run background jobs (outbox worker, health monitor, reminders) in this process */
    JOBS: z.preprocess(emptyToUndefined, z.enum(["on", "off"]).default("on")),
    /** trust X-Forwarded-* from a load balancer */
    TRUST_PROXY: z.preprocess(
      emptyToUndefined,
      z
        .string()
        .trim()
        .refine(
          (v) => /^(true|false|\d{1,2})$/.test(v) || v.split(",").every((part) => /^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(part.trim())),
          "must be false, true (one proxy), a number of proxy hops, or a comma-separated list of proxy addresses / CIDRs",
        )
        .default("false"),
    ),
    /** embedded database only: PostgreSQL's shared_buffers in MB (more holds more in memory; README "Memory") */
    PGLITE_SHARED_BUFFERS_MB: intFrom(32, 8, 4096),
    /** seconds a stopping server waits for requests in flight before it closes their connections and exits */
    SHUTDOWN_TIMEOUT_S: intFrom(10, 1, 600),
    /** bearer token for GET /metrics (Prometheus); unset: /metrics answers 404 */
    METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, "must be at least 16 characters").optional()),
    LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(["fatal", "error", "warn", "info", "debug", "silent"]).default("info")),
  })
  .superRefine((c, ctx) => {
    if (c.ADMIN_PASSWORD && !c.ADMIN_EMAIL) {
      ctx.addIssue({ code: "custom", path: ["ADMIN_EMAIL"], message: "is required when ADMIN_PASSWORD is set" });
    }
    if (Boolean(c.PANEL_API_URL) !== Boolean(c.PANEL_API_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: [c.PANEL_API_URL ? "PANEL_API_KEY" : "PANEL_API_URL"],
        message: "PANEL_API_URL and PANEL_API_KEY go together",
      });
    }
    if (Boolean(c.IKHOKHA_APP_ID) !== Boolean(c.IKHOKHA_APP_SECRET)) {
      ctx.addIssue({ code: "custom", path: ["IKHOKHA_APP_SECRET"], message: "IKHOKHA_APP_ID and IKHOKHA_APP_SECRET go together" });
    }
    // A payment provider is on when any of its keys is set; then every one of them must be.
    for (const group of PROVIDER_KEYS) {
      const set = group.filter((name) => Boolean(c[name]));
      if (set.length === 0 || set.length === group.length) continue;
      for (const name of group.filter((n) => !c[n])) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: `is required when ${set.join(" and ")} ${set.length > 1 ? "are" : "is"} set`,
        });
      }
    }
    if (Boolean(c.WHATSAPP_TOKEN) !== Boolean(c.WHATSAPP_PHONE_NUMBER_ID)) {
      ctx.addIssue({
        code: "custom",
        path: ["WHATSAPP_PHONE_NUMBER_ID"],
        message: "WHATSAPP_TOKEN and WHATSAPP_PHONE_NUMBER_ID go together",
      });
    }
  });

export type Config = z.infer<typeof configSchema> & {
  /** tests: use an in-memory PGlite instead of DATA_DIR */
  inMemoryDb?: boolean;
};

export class ConfigError extends Error {}

/** Parse the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(config)"}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return { ...parsed.data, ...overrides };
}

/** A config for tests: in-memory database, no jobs, quiet logs, generous limits. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return loadConfig(
    // Tests hash at 2^14 to stay quick; passwords.test.ts checks the production cost and the rehash.
    { NODE_ENV: "test", LOG_LEVEL: "silent", JOBS: "off", PUBLIC_URL: "http://localhost:8080", PASSWORD_HASH_COST: "14" },
    { inMemoryDb: true, ...overrides },
  );
}
