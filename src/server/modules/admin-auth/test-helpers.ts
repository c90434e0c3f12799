// Test helpers for admin API tests: an admin account and a signed-in cookie, made through the
// real login endpoint so tests exercise what a browser does.
import { randomBytes } from "node:crypto";
import type { App } from "@/server/app";
import { hashPassword } from "@/server/auth/passwords";
import { ADMIN_COOKIE } from "@/server/auth/sessions";
import { admins } from "@/server/db/schema";

export const TEST_ADMIN_PASSWORD = "Correct-Horse-42";

export interface TestAdmin {
  id: string;
  email: string;
  password: string;
  /** a Cookie header value carrying the admin session */
  cookie: string;
}

export async function createAdmin(
  app: App,
  email = `admin-${randomBytes(4).toString("hex")}@example.test`,
  password = TEST_ADMIN_PASSWORD,
) {
  const [row] = await app.db
    .insert(admins)
    .values({ email: email.toLowerCase(), name: "Test Admin", password_hash: await hashPassword(password) })
    .returning();
  return row;
}

/** The sd_admin cookie from a login response, as a Cookie header value. */
export function sessionCookieFrom(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const line = all.find((c) => c.startsWith(`${ADMIN_COOKIE}=`));
  if (!line) throw new Error("no admin session cookie was set");
  return line.split(";")[0];
}

/** A made-up client address, so sign-ins in tests do not run into the per-IP login limit. */
export const randomIp = () => `10.${[...randomBytes(3)].join(".")}`;

export async function signIn(app: App, email: string, password = TEST_ADMIN_PASSWORD): Promise<string> {
  const res = await app.inject({ method: "POST", url: "/api/admin/login", payload: { email, password }, remoteAddress: randomIp() });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return sessionCookieFrom(res.headers["set-cookie"]);
}

/** A new admin account, signed in. */
export async function signedInAdmin(app: App): Promise<TestAdmin> {
  const row = await createAdmin(app);
  return { id: row.id, email: row.email, password: TEST_ADMIN_PASSWORD, cookie: await signIn(app, row.email) };
}
