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
 * The PayFast merchant the server is started with, and the fake PayFast (tests/e2e/fake-providers.ts)
 * knows: card payments stay on the sandbox checkout; PayFast is offered beside them.
 */
export const e2ePayfast = {
  merchantId: "10000100",
  merchantKey: "46f0cd694581a",
  passphrase: "e2e-payfast-passphrase",
} as const;
