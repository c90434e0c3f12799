// Scheduled maintenance and clients' own status updates, end to end on the real database:
// the admin schedules, edits and cancels a window; subscribers (an e-mail address, and a
// signed-in client on WhatsApp) hear of it when it is scheduled, starts, changes and is
// completed or cancelled, once each however often a change is heard; the status page lists it
// with its components reading "maintenance" while it runs (not "down").
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_COOKIE, CLIENT_COOKIE } from "@/server/auth/sessions";
import { clients, incidents, outbox, statusSubscribers, systemComponents } from "@/server/db/schema";
import { runMaintenanceClock } from "@/server/jobs/maintenance";
import { clientSession, type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import type { StatusResponse } from "@/shared/api";
import { notifySubscribers } from "./subscriptions";

let t: TestApp;
let admin: SignedIn;
let clientId: string;
let clientCookie: Record<string, string>;
const HOUR = 60 * 60 * 1000;
const ORIGIN = { origin: "http://localhost:8080" };

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 1000 }, { seed: false });
  admin = await signInAdmin(t.app);
  await t.app.db.insert(systemComponents).values([
    { key: "streams", name: "Streaming servers", sort_order: 1, status: "down" },
    { key: "website", name: "Website", sort_order: 2 },
  ]);
  // A confirmed e-mail subscriber, as the double opt-in leaves one.
  await t.app.db.insert(statusSubscribers).values({ email: "pat@example.test", unsubscribe_token: "pat-token", confirmed_at: new Date() });
  const [client] = await t.app.db
    .insert(clients)
    .values({
      username: "thandi.m",
      password_hash: "x",
      full_name: "Thandi Mokoena",
      status: "active",
      whatsapp: "+27 82 123 4567",
      email: "thandi@example.test",
      communication_method: "whatsapp",
    })
    .returning();
  clientId = client.id;
  clientCookie = (await clientSession(t.app, clientId)).cookie;
});
afterAll(async () => {
  await t?.close();
});

// The notices as queued (without the e-mail copy the outbox worker adds for a WhatsApp message it cannot send itself).
const notices = async () =>
  (await t.app.db.select().from(outbox).where(eq(outbox.kind, "status-update")).orderBy(outbox.created_at, outbox.recipient)).filter(
    (n) => !n.dedupe_key?.endsWith(":email-copy"),
  );
const noticesTo = async (recipient: string) => (await notices()).filter((n) => n.recipient === recipient);
const status = async () => (await t.app.inject({ method: "GET", url: "/api/status" })).json() as StatusResponse;

describe("a signed-in client's own status updates", () => {
  it("subscribes from POST /api/status/subscribe without a confirmation, shows and switches it in the portal", async () => {
    const before = await t.app.inject({ method: "GET", url: "/api/client/status-updates", cookies: clientCookie });
    expect(before.statusCode).toBe(200);
    expect(before.json().data).toEqual({ subscribed: false, channel: "whatsapp" });

    const on = await t.app.inject({ method: "POST", url: "/api/status/subscribe", payload: {}, headers: ORIGIN, cookies: clientCookie });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().message).toContain("on WhatsApp");
    expect(on.json().data).toEqual({ subscribed: true, channel: "whatsapp" });
    // no confirmation message: the session says who they are
    expect(await t.app.db.select().from(outbox).where(eq(outbox.kind, "status-confirm"))).toHaveLength(0);
    // again: still one row
    await t.app.inject({ method: "POST", url: "/api/status/subscribe", payload: {}, headers: ORIGIN, cookies: clientCookie });
    expect(await t.app.db.select().from(statusSubscribers).where(eq(statusSubscribers.client_id, clientId))).toHaveLength(1);

    const off = await t.app.inject({
      method: "PUT",
      url: "/api/client/status-updates",
      payload: { subscribed: false },
      headers: ORIGIN,
      cookies: clientCookie,
    });
    expect(off.json().data.subscribed).toBe(false);
    const back = await t.app.inject({
      method: "PUT",
      url: "/api/client/status-updates",
      payload: { subscribed: true },
      headers: ORIGIN,
      cookies: clientCookie,
    });
    expect(back.json().data).toEqual({ subscribed: true, channel: "whatsapp" });

    const bad = await t.app.inject({
      method: "PUT",
      url: "/api/client/status-updates",
      payload: { subscribed: "yes" },
      headers: ORIGIN,
      cookies: clientCookie,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.subscribed).toBe("Status updates must be on or off");
    // Signed out, the same POST without an address is the public form's: an address is needed.
    const anonymous = await t.app.inject({ method: "POST", url: "/api/status/subscribe", payload: {}, headers: ORIGIN });
    expect(anonymous.statusCode).toBe(400);
    expect((await t.app.inject({ method: "GET", url: "/api/client/status-updates" })).statusCode).toBe(401);
  });
});

describe("scheduled maintenance", () => {
  let id: string;
  const start = new Date(Date.now() + 48 * HOUR);
  const end = new Date(start.getTime() + 2 * HOUR);

  it("refuses a window without times or ending before it starts, naming the field", async () => {
    const missing = await admin.call({ method: "POST", url: "/api/admin/maintenance", payload: { title: "Upgrade" } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toMatchObject({
      started_at: "Please enter when the maintenance starts",
      ends_at: "Please enter when the maintenance ends",
    });
    const backwards = await admin.call({
      method: "POST",
      url: "/api/admin/maintenance",
      payload: { title: "Upgrade", started_at: end.toISOString(), ends_at: start.toISOString() },
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.fields.ends_at).toBe("The end must be after the start");
    const unknown = await admin.call({
      method: "POST",
      url: "/api/admin/maintenance",
      payload: { title: "Upgrade", started_at: start.toISOString(), ends_at: end.toISOString(), component_keys: ["nope"] },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields.component_keys).toContain("'nope'");
  });

  it("scheduled: the advance notice reaches the e-mail subscriber and the client on WhatsApp, once each; the page lists it", async () => {
    const created = await admin.call({
      method: "POST",
      url: "/api/admin/maintenance",
      payload: {
        title: "Streaming server upgrade",
        body: "Channels may drop for a few minutes.",
        started_at: "2030-03-02T01:00:00+02:00",
        ends_at: "2030-03-02T03:00:00+02:00",
        component_keys: ["streams"],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    id = created.json().id;
    expect(created.json()).toMatchObject({ kind: "maintenance", status: "scheduled", resolved_at: null });

    const first = await eventually(async () => {
      const rows = await notices();
      expect(rows).toHaveLength(2);
      return rows;
    });
    const email = first.find((n) => n.channel === "email");
    const whatsapp = first.find((n) => n.channel === "whatsapp");
    expect(email).toMatchObject({ recipient: "pat@example.test", client_id: null });
    expect(email?.subject).toContain("Scheduled maintenance: Streaming server upgrade");
    expect(email?.body).toContain("When: 2 Mar 2030, 01:00 to 2 Mar 2030, 03:00 (SAST)");
    expect(email?.body).toContain("Affected: Streaming servers");
    expect(email?.body).toContain("/api/status/unsubscribe?token=pat-token");
    expect(whatsapp).toMatchObject({ recipient: "27821234567", client_id: clientId, subject: "" });
    expect(whatsapp?.body).toContain("switch them off under Account management");
    // Heard again (another process, a replay): nothing more.
    await notifySubscribers(t.app, id, true);
    expect(await notices()).toHaveLength(2);

    const page = await status();
    expect(page.maintenance).toEqual([
      expect.objectContaining({
        id,
        title: "Streaming server upgrade",
        status: "scheduled",
        component_keys: ["streams"],
        starts_at: "2030-03-01T23:00:00.000Z",
        ends_at: "2030-03-02T01:00:00.000Z",
      }),
    ]);
    expect(page.incidents).toEqual([]);
    // not yet running: the component still reads what the monitor saw
    expect(page.components.find((c) => c.key === "streams")?.status).toBe("down");
    // the incidents list does not show it; the maintenance list does
    expect((await admin.call({ method: "GET", url: "/api/admin/incidents" })).json().data).toEqual([]);
    expect((await admin.call({ method: "GET", url: "/api/admin/maintenance" })).json().data.map((m: { id: string }) => m.id)).toEqual([id]);
    expect((await admin.call({ method: "POST", url: `/api/admin/incidents/${id}/resolve` })).statusCode).toBe(404);
  });

  it("starts and completes by the clock (notices each), once however many run it", async () => {
    const startsAt = new Date("2030-03-01T23:00:00.000Z");
    const [a, b] = await Promise.all([
      runMaintenanceClock(t.app, new Date(startsAt.getTime() + 60_000)),
      runMaintenanceClock(t.app, new Date(startsAt.getTime() + 60_000)),
    ]);
    expect(a.started + b.started).toBe(1);
    await eventually(async () => {
      const rows = await noticesTo("pat@example.test");
      expect(rows).toHaveLength(2);
      expect(rows[1].subject).toContain("Maintenance in progress: Streaming server upgrade");
    });
    await eventually(async () => expect(await noticesTo("27821234567")).toHaveLength(2));

    const done = await runMaintenanceClock(t.app, new Date(startsAt.getTime() + 3 * HOUR));
    expect(done.completed).toBe(1);
    expect((await runMaintenanceClock(t.app, new Date(startsAt.getTime() + 3 * HOUR))).completed).toBe(0);
    await eventually(async () => {
      const rows = await noticesTo("pat@example.test");
      expect(rows).toHaveLength(3);
      expect(rows[2].subject).toContain("Maintenance completed");
    });
    const [row] = await t.app.db.select().from(incidents).where(eq(incidents.id, id));
    expect(row.resolved_at?.toISOString()).toBe("2030-03-02T01:00:00.000Z");
  });

  it("while it runs, its components read maintenance (not down); editing notifies, cancelling notifies and takes it off the page", async () => {
    const running = await admin.call({
      method: "POST",
      url: "/api/admin/maintenance",
      payload: {
        title: "Database move",
        started_at: new Date(Date.now() - 10 * 60_000).toISOString(),
        ends_at: new Date(Date.now() + HOUR).toISOString(),
        component_keys: ["streams"],
      },
    });
    expect(running.statusCode).toBe(201);
    const runningId = running.json().id as string;
    await eventually(async () => {
      const page = await status();
      expect(page.maintenance.map((m) => m.id)).toEqual([runningId]);
      expect(page.components.find((c) => c.key === "streams")?.status).toBe("maintenance");
      expect(page.components.find((c) => c.key === "website")?.status).toBe("operational");
      expect(page.overall).toBe("maintenance");
    });
    await eventually(async () => expect(await noticesTo("pat@example.test")).toHaveLength(4));

    const later = new Date(Date.now() + 2 * HOUR).toISOString();
    const edited = await admin.call({
      method: "PATCH",
      url: `/api/admin/maintenance/${runningId}`,
      payload: { ends_at: later, body: "Running longer." },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    await eventually(async () => expect(await noticesTo("pat@example.test")).toHaveLength(5));
    const backwards = await admin.call({
      method: "PATCH",
      url: `/api/admin/maintenance/${runningId}`,
      payload: { ends_at: new Date(Date.now() - 2 * HOUR).toISOString() },
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.fields.ends_at).toBe("The end must be after the start");

    const cancelled = await admin.call({ method: "PATCH", url: `/api/admin/maintenance/${runningId}`, payload: { status: "cancelled" } });
    expect(cancelled.json()).toMatchObject({ status: "cancelled" });
    expect(cancelled.json().resolved_at).not.toBeNull();
    await eventually(async () => {
      const rows = await noticesTo("pat@example.test");
      expect(rows).toHaveLength(6);
      expect(rows[5].subject).toContain("Maintenance cancelled: Database move");
    });
    await eventually(async () => {
      const page = await status();
      expect(page.maintenance).toEqual([]);
      expect(page.components.find((c) => c.key === "streams")?.status).toBe("down");
    });
  });

  it("stops reaching a client who switched status updates off", async () => {
    await t.app.inject({
      method: "PUT",
      url: "/api/client/status-updates",
      payload: { subscribed: false },
      headers: ORIGIN,
      cookies: clientCookie,
    });
    const before = (await noticesTo("27821234567")).length;
    // the notices queued for the client, as `notices` counts them: the e-mail copy the outbox worker
    // adds for an earlier WhatsApp notice can land at any moment (CI once saw 12 for 11), and is no new notice
    const forClient = async () => (await notices()).filter((n) => n.client_id === clientId).length;
    const clientRows = await forClient();
    const created = await admin.call({
      method: "POST",
      url: "/api/admin/maintenance",
      payload: {
        title: "Night work",
        started_at: new Date(Date.now() + 5 * HOUR).toISOString(),
        ends_at: new Date(Date.now() + 6 * HOUR).toISOString(),
      },
    });
    await eventually(async () => expect((await noticesTo("pat@example.test")).some((n) => n.subject.includes("Night work"))).toBe(true));
    await notifySubscribers(t.app, created.json().id, true);
    expect(await noticesTo("27821234567")).toHaveLength(before);
    expect(await forClient()).toBe(clientRows);
    // the admin cookie is no client session
    expect(
      (await t.app.inject({ method: "GET", url: "/api/client/status-updates", cookies: { [ADMIN_COOKIE]: "x", [CLIENT_COOKIE]: "nope" } }))
        .statusCode,
    ).toBe(401);
  });
});
