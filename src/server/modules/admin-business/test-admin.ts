// Test support: a signed-in admin made directly (admin row + session), and an inject helper
// that carries its cookie. The login route belongs to the admin-auth module.
import { randomBytes } from "node:crypto";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import type { App } from "@/server/app";
import { hashPassword } from "@/server/auth/passwords";
import { ADMIN_COOKIE, CLIENT_COOKIE, createSession } from "@/server/auth/sessions";
import { admins } from "@/server/db/schema";

export interface SignedIn {
  adminId: string;
  email: string;
  /** app.inject with the admin's session cookie */
  call(options: InjectOptions): Promise<LightMyRequestResponse>;
}

export async function signInAdmin(app: App): Promise<SignedIn> {
  const email = `admin-${randomBytes(4).toString("hex")}@example.co.za`;
  const [admin] = await app.db
    .insert(admins)
    .values({ email, name: "Test Admin", password_hash: await hashPassword("not-used-in-these-tests") })
    .returning({ id: admins.id });
  const { token } = await createSession(app.db, { kind: "admin", adminId: admin.id, ttlHours: 1 });
  return {
    adminId: admin.id,
    email,
    // As the dashboard in a browser calls: with the session cookie and our own Origin.
    call: (options) =>
      app.inject({
        ...options,
        headers: { origin: app.config.PUBLIC_URL ?? "http://localhost:8080", ...((options.headers as Record<string, string>) ?? {}) },
        cookies: { ...(options.cookies ?? {}), [ADMIN_COOKIE]: token },
      }),
  };
}

/** A client portal session for a client (to see suspension and password resets end it). */
export async function clientSession(app: App, clientId: string): Promise<{ cookie: Record<string, string> }> {
  const { token } = await createSession(app.db, { kind: "client", clientId, ttlHours: 1 });
  return { cookie: { [CLIENT_COOKIE]: token } };
}
