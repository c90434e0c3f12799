// What the browser tests share with the server they start: the admin account that
// ADMIN_EMAIL/ADMIN_PASSWORD create on its fresh database, for specs that sign in.
export const e2eAdmin = {
  email: "admin@streamdesk.test",
  password: "e2e-admin-Passw0rd",
} as const;

/**
 * Our own origin, for API calls a spec makes outside a page (page.request, request): the server
 * refuses a cookie-carrying write without an Origin, as any browser would send one.
 */
export const ownOrigin = () => ({ origin: `http://127.0.0.1:${process.env.E2E_PORT}` });

/**
 * The WHATSAPP_APP_SECRET the server is started with (playwright.config.ts, the same string), so a
 * spec can sign a WhatsApp webhook as Meta does. No Cloud API token: replies go by wa.me.
 */
export const e2eWhatsAppAppSecret = "e2e-whatsapp-app-secret";

/**
 * The PayFast, Ozow and Yoco merchants the server is started with, and the fakes
 * (tests/e2e/fake-providers.ts) know: card payments stay on the sandbox checkout (the default
 * choice); the three are offered beside them.
 */
export const e2ePayfast = {
  merchantId: "10000100",
  merchantKey: "46f0cd694581a",
  passphrase: "e2e-payfast-passphrase",
} as const;

export const e2eOzow = { siteCode: "E2E-SITE-001", privateKey: "e2e-ozow-private-key", apiKey: "e2e-ozow-api-key" } as const;

export const e2eYoco = {
  secretKey: "sk_test_e2e_yoco",
  webhookSecret: `whsec_${Buffer.from("e2e-yoco-webhook-signing-secret").toString("base64")}`,
} as const;
