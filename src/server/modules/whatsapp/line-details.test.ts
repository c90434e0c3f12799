// The inbox's "Resend line details" without the Cloud API (issue 26): the client's line login is
// queued again through the outbox — on WhatsApp (which then waits in the owner's queue) and by
// e-mail — once per click (the Idempotency-Key), with absolute links and the password sealed;
// a retried or doubled click queues nothing more; refused for a lead, a client without a line or
// with the line off. (With the Cloud API, sending and live delivery states: inbox.test.ts.)
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLog, leads, outbox } from "@/server/db/schema";
import { SECRET_URL_PLACEHOLDER } from "@/server/lib/outbox";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { makeClient } from "@/server/modules/client/test-helpers";
import { secondProcess, startTogether } from "@/server/test-support/race";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { LINE_DETAILS_MESSAGES } from "./line-details";

const NUMBER = "27825554001";
const PASSWORD = "line-Secret-8841";
let t: TestApp;
let cookie: string;
let lindiwe: { id: string };

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  cookie = (await signedInAdmin(t.app)).cookie;
  lindiwe = await makeClient(t.app, {
    username: "lindiwe.d",
    full_name: "Lindiwe Dlamini",
    whatsapp: NUMBER,
    email: "lindiwe@example.test",
    status: "active",
    subscription_end: new Date("2027-03-01T22:00:00Z"),
    panel_line_id: "line-77",
    line_username: "lindiwe_line",
    line_password: PASSWORD,
    line_portal_url: "http://line.example.test:8080",
    line_expires_at: new Date("2027-03-01T22:00:00Z"),
    line_enabled: true,
  });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.app.db.delete(outbox);
});

const resend = (number: string, key?: string, withCookie = true, app = t.app) =>
  app.inject({
    method: "POST",
    url: `/api/admin/inbox/${number}/resend-line-details`,
    headers: {
      origin: "http://localhost:8080",
      ...(withCookie ? { cookie } : {}),
      ...(key ? { "idempotency-key": key } : {}),
    },
  });

describe("resending the line details from the inbox", () => {
  it("queues the line login on WhatsApp and by e-mail, absolute links and the password sealed; audited", async () => {
    const res = await resend(NUMBER, "click-1");
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ client_id: lindiwe.id, replayed: false, cloud_api: false });
    expect(data.queued.map((q: { channel: string; hint: string; status: string }) => [q.channel, q.hint, q.status])).toEqual([
      ["email", "l***@example.test", "pending"],
      ["whatsapp", "ending 4001", "pending"],
    ]);

    const rows = await t.app.db.select().from(outbox).orderBy(outbox.channel);
    expect(rows.map((r) => [r.channel, r.recipient, r.kind, r.client_id])).toEqual([
      ["email", "lindiwe@example.test", "credentials", lindiwe.id],
      ["whatsapp", NUMBER, "credentials", lindiwe.id],
    ]);
    for (const row of rows) {
      expect(row.id).toBe(data.queued.find((q: { channel: string }) => q.channel === row.channel).id);
      expect(row.body).toContain("Hi Lindiwe");
      expect(row.body).toContain("lindiwe_line");
      // the M3U link is absolute, its password filled in only as the worker sends it
      expect(row.body).toContain(`http://line.example.test:8080/get.php?username=lindiwe_line&password=${SECRET_URL_PLACEHOLDER}`);
      expect(row.body).not.toContain(PASSWORD);
      expect(row.secret_enc).not.toBeNull();
      expect(row.secret_enc).not.toContain(PASSWORD);
    }
    const entries = await t.app.db.select().from(auditLog).where(eq(auditLog.action, "resend-line-details"));
    expect(entries.map((e) => [e.resource, e.resource_id])).toContainEqual(["clients", lindiwe.id]);
  });

  it("without the Cloud API the WhatsApp message then waits in the owner's queue, and the thread shows it so", async () => {
    const queued = (await resend(NUMBER, "click-owner")).json().data.queued;
    await t.app.outbox.drain();
    const whatsapp = queued.find((q: { channel: string }) => q.channel === "whatsapp");
    const [row] = await t.app.db.select().from(outbox).where(eq(outbox.id, whatsapp.id));
    expect(row.status).toBe("owner");
    const thread = (
      await t.app.inject({ method: "GET", url: `/api/admin/inbox/${NUMBER}`, headers: { origin: "http://localhost:8080", cookie } })
    ).json().data;
    expect(thread.messages.find((m: { id: string }) => m.id === whatsapp.id)).toMatchObject({
      source: "outbox",
      type: "credentials",
      status: "owner",
    });
    // a retry of the same click answers the state now, queuing nothing
    const again = await resend(NUMBER, "click-owner");
    expect(again.statusCode).toBe(200);
    expect(again.json().data.queued.find((q: { id: string }) => q.id === whatsapp.id).status).toBe("owner");
  });

  it("once per click: the same Idempotency-Key again (or twice together, taking turns on PGlite's one connection) queues nothing more; a new click queues again", async () => {
    const first = (await resend(NUMBER, "click-2")).json().data;
    const retried = await resend(NUMBER, "click-2");
    expect(retried.statusCode).toBe(200);
    const ids = (data: { queued: { id: string }[] }) => data.queued.map((q) => q.id);
    expect(retried.json().data.replayed).toBe(true);
    // the same rows (their state may have moved on: the worker takes them meanwhile)
    expect(ids(retried.json().data)).toEqual(ids(first));
    expect(await t.app.db.select().from(outbox)).toHaveLength(2);

    const both = await Promise.all([resend(NUMBER, "click-3"), resend(NUMBER, "click-3")]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    expect(ids(both[0].json().data)).toEqual(ids(both[1].json().data));
    expect(await t.app.db.select().from(outbox)).toHaveLength(4);
    const audited = await t.app.db.select().from(auditLog).where(eq(auditLog.action, "resend-line-details"));
    expect(audited.filter((e) => JSON.stringify(e.after).includes("click-3"))).toHaveLength(1);

    expect((await resend(NUMBER, "click-4")).statusCode).toBe(201);
    expect(await t.app.db.select().from(outbox)).toHaveLength(6);
  });

  it.runIf(onPostgres())(
    "PostgreSQL only (PGlite is one connection: nothing races there): one click's key on two processes at the same moment queues once, audited once; both are answered with the same rows",
    async () => {
      const other = await secondProcess(t);
      try {
        const both = await startTogether(t.database.url as string, "LOCK TABLE outbox IN EXCLUSIVE MODE", 2, () =>
          Promise.all([resend(NUMBER, "click-pg", true, t.app), resend(NUMBER, "click-pg", true, other.app)]),
        );
        expect(both.map((r) => r.statusCode).sort(), both.map((r) => r.body).join(" ")).toEqual([200, 201]);
        const ids = (r: (typeof both)[number]) => (r.json().data.queued as { id: string }[]).map((q) => q.id).sort();
        expect(ids(both[0])).toEqual(ids(both[1]));
        expect(await t.app.db.select().from(outbox)).toHaveLength(2);
        const audited = await t.app.db.select().from(auditLog).where(eq(auditLog.action, "resend-line-details"));
        expect(audited.filter((e) => JSON.stringify(e.after).includes("click-pg"))).toHaveLength(1);
      } finally {
        await other.close();
      }
    },
  );

  it("refuses a lead's number, a client without a line login and a line switched off with a 409 saying why, queuing nothing", async () => {
    await t.app.db.insert(leads).values({ form_type: "whatsapp", name: "Sipho", whatsapp: "27835554002", whatsapp_digits: "27835554002" });
    await makeClient(t.app, { username: "noline", full_name: "No Line", whatsapp: "27835554003", status: "pending" });
    await makeClient(t.app, {
      username: "lineoff",
      full_name: "Line Off",
      whatsapp: "27835554004",
      status: "expired",
      panel_line_id: "line-78",
      line_username: "off_line",
      line_password: "x-Secret-1",
      line_enabled: false,
    });
    // a line entered by hand (no panel id) has a login to send
    await makeClient(t.app, {
      username: "handline",
      full_name: "Hand Line",
      whatsapp: "27835554005",
      status: "active",
      line_username: "hand_line",
      line_password: "hand-Secret-2",
    });
    expect((await resend("27835554005", "hand")).statusCode).toBe(201);
    await t.app.db.delete(outbox);
    for (const [number, message] of [
      ["27835554002", LINE_DETAILS_MESSAGES.notClient],
      ["27835554009", LINE_DETAILS_MESSAGES.notClient],
      ["27835554003", LINE_DETAILS_MESSAGES.noLine],
      ["27835554004", LINE_DETAILS_MESSAGES.lineOff],
    ]) {
      const res = await resend(number, `refused-${number}`);
      expect(res.statusCode, number).toBe(409);
      expect(res.json().error.message).toBe(message);
    }
    expect(await t.app.db.select().from(outbox)).toEqual([]);
  });

  it("answers 404 for a number that is not international digits and 401 without an admin session", async () => {
    for (const number of ["0825554001", "abc", "%2B27825554001"]) expect((await resend(number, "k")).statusCode, number).toBe(404);
    expect((await resend(NUMBER, "k", false)).statusCode).toBe(401);
    expect(await t.app.db.select().from(outbox)).toEqual([]);
  });
});
