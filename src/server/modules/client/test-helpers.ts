// Helpers for the client-portal tests: make a client account and sign it in through the API.

import { and, desc, eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import type { App } from "@/server/app";
import { hashPassword } from "@/server/auth/passwords";
import { createSession } from "@/server/auth/sessions";
import { admins, clients, outbox } from "@/server/db/schema";
import { open } from "@/server/lib/secret-box";
import { identifyLookupsSettled } from "@/server/modules/payments/payer";

export const PUBLIC_URL = "http://localhost:8080";

let ipCounter = 0;
/** Each call a new address, so per-IP limits never interfere between tests. */
export const nextIp = () => `10.${Math.floor(++ipCounter / 62500) % 250}.${Math.floor(ipCounter / 250) % 250}.${ipCounter % 250}`;

export interface TestClient {
  id: string;
  username: string;
  password: string;
}

export async function makeClient(
  app: App,
  values: Omit<Partial<typeof clients.$inferInsert>, "password_hash"> & { username: string },
  password = `Pw-${values.username}-2026!`,
): Promise<TestClient> {
  const [row] = await app.db
    .insert(clients)
    .values({ full_name: values.username, password_hash: await hashPassword(password), ...values })
    .returning({ id: clients.id });
  return { id: row.id, username: values.username, password };
}

/** The `name=value` pair of a Set-Cookie header, for sending it back. */
export function cookieFrom(response: LightMyRequestResponse, name: string): string {
  const header = response.headers["set-cookie"];
  const list = Array.isArray(header) ? header : header ? [header] : [];
  const found = list.find((c) => c.startsWith(`${name}=`));
  if (!found) throw new Error(`no ${name} cookie in ${JSON.stringify(list)}`);
  return found.split(";")[0];
}

export function login(app: App, username: string, password: string, ip = nextIp()) {
  return app.inject({ method: "POST", url: "/api/client/login", payload: { username, password }, remoteAddress: ip });
}

/** Signs in and answers the `sd_client=…` cookie pair. */
export async function signIn(app: App, client: Pick<TestClient, "username" | "password">): Promise<string> {
  const response = await login(app, client.username, client.password);
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return cookieFrom(response, "sd_client");
}

/** An admin row and a live admin session token (the admin login route is another module's). */
export async function adminToken(app: App, email = `owner-${Date.now()}@example.test`): Promise<string> {
  const [admin] = await app.db.insert(admins).values({ email, password_hash: "x" }).returning({ id: admins.id });
  const { token } = await createSession(app.db, { kind: "admin", adminId: admin.id, ttlHours: 12 });
  return token;
}

/**
 * The newest one-time code queued to `recipient` (as the customer reads it: the outbox keeps it
 * sealed), once any identify's lookup has finished (it answers before it sends).
 */
export async function codeSentTo(app: App, recipient: string): Promise<string> {
  await identifyLookupsSettled();
  const [row] = await app.db
    .select({ secret: outbox.secret_enc })
    .from(outbox)
    .where(and(eq(outbox.kind, "verification-code"), eq(outbox.recipient, recipient)))
    .orderBy(desc(outbox.created_at))
    .limit(1);
  if (!row?.secret) throw new Error(`no code was queued to ${recipient}`);
  return open(app.db, row.secret);
}
