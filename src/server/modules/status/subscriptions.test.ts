// Status subscriptions end to end on the real database: subscribe (double opt-in by a mailed
// link, the same answer for everyone), confirm, an incident opened and resolved reaches the
// subscriber once each however often its change is heard, unsubscribe stops it.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox, statusSubscribers } from "@/server/db/schema";
import { open } from "@/server/lib/secret-box";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import { EMAIL_MESSAGE, notifySubscribers, SUBSCRIBE_ANSWER } from "./subscriptions";

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 1000 }, { seed: true });
  admin = await signInAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

const subscribe = (email: unknown) =>
  t.app.inject({ method: "POST", url: "/api/status/subscribe", payload: { email }, headers: { origin: "http://localhost:8080" } });
const mailsTo = (recipient: string, kind: string) =>
  t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.recipient, recipient), eq(outbox.kind, kind)))
    .orderBy(outbox.created_at);

describe("status subscriptions", () => {
  it("refuses an address that is not one, naming the field", async () => {
    for (const email of ["", "not-an-email", 42, "x@", "a b@example.test"]) {
      const res = await subscribe(email);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.email).toBe(EMAIL_MESSAGE);
    }
  });

  it("mails a confirmation link (kept sealed), confirms once, notifies incidents once each, and stops after unsubscribing", async () => {
    const first = await subscribe("Pat@Example.test");
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ success: true, message: SUBSCRIBE_ANSWER });
    const [confirmMail] = await mailsTo("pat@example.test", "status-confirm");
    expect(confirmMail.body).toContain("{{secret}}");
    expect(confirmMail.body).not.toContain("token=");
    const link = await open(t.app.db, confirmMail.secret_enc as string);
    expect(link).toMatch(/\/api\/status\/subscribe\/confirm\?token=/);
    const url = new URL(link);

    // Opening the link shows a button; only the button's post confirms (mail scanners open links).
    const view = await t.app.inject({ method: "GET", url: `${url.pathname}${url.search}` });
    expect(view.statusCode).toBe(200);
    expect(view.body).toContain("<button");
    expect(
      (await t.app.db.select().from(statusSubscribers).where(eq(statusSubscribers.email, "pat@example.test")))[0].confirmed_at,
    ).toBeNull();
    const confirm = await t.app.inject({
      method: "POST",
      url: `${url.pathname}${url.search}`,
      payload: "",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:8080" },
    });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain("You&#39;re subscribed");
    const again = await t.app.inject({ method: "POST", url: `${url.pathname}${url.search}`, headers: { origin: "http://localhost:8080" } });
    expect(again.statusCode).toBe(404);

    // Asking again once confirmed sends nothing more, with the same answer.
    expect((await subscribe("pat@example.test")).json().message).toBe(SUBSCRIBE_ANSWER);
    expect(await mailsTo("pat@example.test", "status-confirm")).toHaveLength(1);

    // An incident opened, then resolved: one notice each, via the change feed.
    const opened = await admin.call({
      method: "POST",
      url: "/api/admin/incidents",
      payload: { title: "Sport channels buffering", body: "We're on it.", impact: "major", status: "investigating" },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const incidentId = opened.json().id as string;
    const news = await eventually(async () => {
      const rows = await mailsTo("pat@example.test", "status-update");
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(news[0].subject).toContain("New: Sport channels buffering");
    expect(news[0].body).toContain("/api/status/unsubscribe?token=");
    // The same change heard again (another process, a replay) queues nothing more.
    await notifySubscribers(t.app, incidentId, true);
    expect(await mailsTo("pat@example.test", "status-update")).toHaveLength(1);

    expect((await admin.call({ method: "POST", url: `/api/admin/incidents/${incidentId}/resolve` })).statusCode).toBeLessThan(300);
    const resolved = await eventually(async () => {
      const rows = await mailsTo("pat@example.test", "status-update");
      expect(rows).toHaveLength(2);
      return rows;
    });
    expect(resolved[1].subject).toContain("Resolved: Sport channels buffering");

    // Unsubscribe (one click from the e-mail's link posts the token): nothing more after that.
    const [row] = await t.app.db.select().from(statusSubscribers).where(eq(statusSubscribers.email, "pat@example.test"));
    const out = await t.app.inject({
      method: "POST",
      url: `/api/status/unsubscribe?token=${row.unsubscribe_token}`,
      payload: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:8080" },
    });
    expect(out.statusCode).toBe(200);
    expect(out.body).toContain("You&#39;re unsubscribed");
    const later = await admin.call({
      method: "POST",
      url: "/api/admin/incidents",
      payload: { title: "Night maintenance", impact: "maintenance" },
    });
    expect(later.statusCode).toBe(201);
    await notifySubscribers(t.app, later.json().id, true);
    expect(await mailsTo("pat@example.test", "status-update")).toHaveLength(2);
  });
});
