// Password reset end to end through a real SMTP server on loopback: the mail carries a link
// whose token resets the password once, ends every session, and dies after 30 minutes.
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox, passwordResetTokens, sessions } from "@/server/db/schema";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { createMessagingTestApp, type MessagingTestApp } from "@/server/test-support/messaging-app";
import type { ReceivedMail } from "@/server/test-support/smtp-sink";
import { eventually } from "@/server/testing";
import { INVALID_RESET_TOKEN_MESSAGE, RESET_REQUESTED_MESSAGE } from "@/shared/client-schemas";
import { login, makeClient, nextIp, PUBLIC_URL, signIn, type TestClient } from "./test-helpers";

let t: MessagingTestApp;
let mails: ReceivedMail[];
let naledi: TestClient;

beforeAll(async () => {
  t = await createMessagingTestApp({ config: { PUBLIC_URL }, build: { seed: true } });
  mails = t.mails;
  naledi = await makeClient(t.app, {
    username: "naledi.p",
    full_name: "Naledi Phiri",
    email: "Naledi@Example.co.za",
    whatsapp: "082 555 1234",
  });
});

afterAll(async () => {
  await t?.close();
});

const requestReset = (identifier: unknown) =>
  t.app.inject({ method: "POST", url: "/api/client/password-reset/request", payload: { identifier }, remoteAddress: nextIp() });
const confirm = (token: string, password: string) =>
  t.app.inject({ method: "POST", url: "/api/client/password-reset/confirm", payload: { token, password }, remoteAddress: nextIp() });

/** Quoted-printable soft line breaks and '=3D' undone, so the link reads as sent. */
const decoded = (data: string) => data.replace(/=\r?\n/g, "").replace(/=3D/g, "=");

function tokenFrom(mail: ReceivedMail): string {
  const match = /client-password-reset\?token=([A-Za-z0-9_-]{43})/.exec(decoded(mail.raw));
  if (!match) throw new Error(`no reset link in:\n${mail.raw}`);
  return match[1];
}

async function mailedToken(identifier: string): Promise<string> {
  const before = mails.length;
  const response = await requestReset(identifier);
  expect(response.statusCode).toBe(200);
  // The request nudged the worker already; drain sends whatever it has not claimed yet.
  await t.app.outbox.drain();
  const mail = await eventually(() => {
    const found = mails
      .slice(before)
      .find((m) => m.to.includes("naledi@example.co.za") && decoded(m.raw).includes("client-password-reset"));
    if (!found) throw new Error("no reset mail received");
    return found;
  });
  return tokenFrom(mail);
}

describe("POST /api/client/password-reset/request", () => {
  it("answers the same words for an account and for nobody, and mails only the account", async () => {
    const before = mails.length;
    const unknown = await requestReset("nobody@example.co.za");
    await t.app.outbox.drain();
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual({ success: true, message: RESET_REQUESTED_MESSAGE });
    expect(mails.length).toBe(before);

    const known = await requestReset("naledi.p");
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    await t.app.outbox.drain();
    const received = await eventually(() => {
      const since = mails.slice(before);
      expect(since).toHaveLength(1);
      return since;
    });
    expect(received[0].to).toEqual(["naledi@example.co.za"]);
    const text = decoded(received[0].raw);
    expect(text).toContain(`${PUBLIC_URL}/client-password-reset?token=`);
    expect(text).toContain("StreamDesk");
    expect(text).toContain("naledi.p");
    expect(text).toMatch(/expires in 30 minutes/);
  });

  it("takes about as long for an unknown identifier as for an account", async () => {
    const time = async (identifier: string) => {
      const started = performance.now();
      await requestReset(identifier);
      return performance.now() - started;
    };
    const known = await time("naledi@example.co.za");
    const unknown = await time("someone-else");
    // Both wait for the same floor (250 ms); the work behind a match is well inside it.
    expect(unknown).toBeGreaterThanOrEqual(240);
    expect(known).toBeGreaterThanOrEqual(240);
    expect(Math.abs(known - unknown)).toBeLessThan(200);
  });

  it("stores only the token's SHA-256, expiring in 30 minutes, and queues WhatsApp for a client with a number", async () => {
    const token = await mailedToken("NALEDI@example.co.za");
    const rows = await t.app.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.client_id, naledi.id));
    const row = rows.find((r) => r.token_hash === createHash("sha256").update(token).digest("hex"));
    if (!row) throw new Error("the token's hash is not stored");
    expect(rows.some((r) => r.token_hash.includes(token))).toBe(false);
    const minutes = (row.expires_at.getTime() - row.created_at.getTime()) / 60_000;
    expect(minutes).toBeGreaterThan(29.9);
    expect(minutes).toBeLessThan(30.1);
    // WhatsApp is not configured here: the message waits in the owner's queue, normalised to 27…
    // (the e-mail the request queued beside it already carries it, so no second copy is made)
    const whatsapp = await t.app.db.select().from(outbox).where(eq(outbox.channel, "whatsapp"));
    expect(whatsapp.length).toBeGreaterThan(0);
    expect(whatsapp.every((m) => m.recipient === "27825551234" && m.kind === "password-reset" && m.status === "owner")).toBe(true);
    // each under the kind's own subject, as the owner's queue lists it
    expect(whatsapp.every((m) => m.subject.endsWith(": reset your client portal password"))).toBe(true);
    expect(await t.app.db.select().from(outbox).where(eq(outbox.note, "A copy of a WhatsApp message."))).toEqual([]);
  });

  it("keeps the link out of the stored body and every admin view, and puts it in the message sent", async () => {
    const token = await mailedToken("naledi.p");
    const rows = await t.app.db.select().from(outbox).where(eq(outbox.kind, "password-reset"));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.body).not.toContain(token);
      expect(row.body).not.toContain("client-password-reset");
      expect(row.body).toContain("{{secret}}");
      expect(row.secret_enc).toMatch(/^v1\.db\./);
      expect(row.secret_enc).not.toContain(token);
      // nor a chat link carrying it
      expect(row.wa_link).toBeNull();
    }
    const admin = await signedInAdmin(t.app);
    const listed = await t.app.inject({
      method: "GET",
      url: "/api/admin/outbox?q=password-reset",
      headers: { origin: "http://localhost:8080", cookie: admin.cookie },
    });
    expect(listed.body).not.toContain(token);
    expect(listed.body).not.toContain("client-password-reset");
    expect(listed.json().data[0].body).toContain("Choose a new password here: ••••••");
    const detail = await t.app.inject({
      method: "GET",
      url: `/api/admin/clients/${naledi.id}`,
      headers: { origin: "http://localhost:8080", cookie: admin.cookie },
    });
    expect(detail.statusCode).toBe(200);
    expect(detail.body).not.toContain(token);
    expect(detail.body).toContain("••••••");
  });

  it("needs an identifier (400 beside the field)", async () => {
    const response = await requestReset("  ");
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({ identifier: "Please enter your username or e-mail address" });
  });

  it("limits requests per identifier", async () => {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 5000) await new Promise((r) => setTimeout(r, left + 200));
    // LOGIN_LIMIT_PER_MIN = 5 per identifier, whatever the address.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await requestReset("limit.me")).statusCode);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
  });
});

describe("POST /api/client/password-reset/confirm", () => {
  it("resets the password end to end: old fails, new works, all sessions ended, token single-use", async () => {
    const sessionA = await signIn(t.app, naledi);
    const sessionB = await signIn(t.app, naledi);
    const token = await mailedToken("naledi.p");

    const weak = await confirm(token, "short");
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.fields.password).toBe("Password must be at least 10 characters");

    const newPassword = "Drakensberg mist 77";
    const done = await confirm(token, newPassword);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().success).toBe(true);

    for (const cookie of [sessionA, sessionB]) {
      expect(
        (await t.app.inject({ method: "GET", url: "/api/client/me", headers: { origin: "http://localhost:8080", cookie } })).statusCode,
      ).toBe(401);
    }
    expect(await t.app.db.select().from(sessions).where(eq(sessions.client_id, naledi.id))).toHaveLength(0);
    expect((await login(t.app, naledi.username, naledi.password)).statusCode).toBe(401);
    expect((await login(t.app, naledi.username, newPassword)).statusCode).toBe(200);

    const again = await confirm(token, "Another passphrase 42");
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: { code: "invalid_token", message: INVALID_RESET_TOKEN_MESSAGE } });
    expect((await login(t.app, naledi.username, newPassword)).statusCode).toBe(200);

    // Other links sent before the reset died with it.
    const unused = await t.app.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.client_id, naledi.id));
    expect(unused.every((r) => r.used_at !== null)).toBe(true);
    naledi.password = newPassword;
  });

  it("refuses an expired token", async () => {
    const token = await mailedToken("naledi.p");
    await t.app.db.update(passwordResetTokens).set({ expires_at: new Date(Date.now() - 1000) });
    const response = await confirm(token, "Table Mountain 2030");
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: "invalid_token", message: INVALID_RESET_TOKEN_MESSAGE });
    expect((await login(t.app, naledi.username, naledi.password)).statusCode).toBe(200);
  });

  it("refuses made-up and missing tokens", async () => {
    for (const token of ["", "abc", "A".repeat(43)]) {
      const response = await confirm(token, "Table Mountain 2030");
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("invalid_token");
    }
    const missing = await t.app.inject({ method: "POST", url: "/api/client/password-reset/confirm", payload: {} });
    expect(missing.json().error.code).toBe("invalid_token");
  });
});
