// Line suspended / restored (issue 13 item 3): an admin's suspend or reactivate tells the client
// on their channel, in the owner's template, queued in the change's own transaction, once per
// cause: a replay of the same cause queues nothing more.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientLifecycleEvents, clients, messageTemplates, outbox, sandboxPanelLines } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { adminActor, applyChange, loadRules, queueLineNotice } from "@/server/lib/lifecycle";
import { loadTemplates } from "@/server/lib/message-templates";
import { createTestApp, type TestApp } from "@/server/testing";
import { formatDate } from "@/shared/dates";
import { type SignedIn, signInAdmin } from "./test-admin";

let t: TestApp;
let admin: SignedIn;
const DAY = 24 * 60 * 60 * 1000;
const end = new Date(Date.now() + 20 * DAY);

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  admin = await signInAdmin(t.app);
});
afterAll(async () => {
  await t?.close();
});

/** A line on the (sandbox) panel, as a paid client has: the suspend and reactivate switch it off and on. */
const sandboxLine = async (username: string) =>
  (
    await t.app.db
      .insert(sandboxPanelLines)
      .values({ username: `line-${username}`, password: "pw", panel_package_id: "sbx-1m", exp_date: end })
      .returning({ id: sandboxPanelLines.id })
  )[0].id;

const makeClient = async (username: string, values: Partial<typeof clients.$inferInsert> = {}) =>
  (
    await t.app.db
      .insert(clients)
      .values({
        username,
        password_hash: "x",
        full_name: "Sipho Dlamini",
        status: "active",
        package_name: "Premium",
        subscription_start: new Date(),
        subscription_end: end,
        email: `${username}@example.test`,
        communication_method: "email",
        // a line on the panel, as a paid client has (one test takes it away)
        panel_line_id: "panel_line_id" in values ? values.panel_line_id : await sandboxLine(username),
        ...values,
      })
      .returning()
  )[0];
// As queued (the outbox worker's e-mail copy of a WhatsApp message left out).
const messagesFor = async (clientId: string, kind: string) =>
  (
    await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, kind)))
  ).filter((m) => !m.dedupe_key?.endsWith(":email-copy"));

describe("line suspended / restored messages", () => {
  it("suspend: one 'Line suspended' message on the client's channel; a replay of the cause queues none more", async () => {
    const client = await makeClient("sipho.d");
    const res = await admin.call({ method: "POST", url: `/api/admin/clients/${client.id}/suspend` });
    expect(res.statusCode, res.body).toBe(200);
    const [message, ...more] = await messagesFor(client.id, "line-suspended");
    expect(more).toHaveLength(0);
    expect(message).toMatchObject({ channel: "email", recipient: "sipho.d@example.test", status: expect.any(String) });
    expect(message.subject).toMatch(/: your service is on hold$/);
    expect(message.body).toContain("Hi Sipho,");
    expect(message.body).toContain("(Premium) on hold");
    expect(message.body).not.toContain("{{");

    // The same cause applied again (a retried request, another process): nothing changes, nothing more is queued.
    const [event] = await t.app.db.select().from(clientLifecycleEvents).where(eq(clientLifecycleEvents.client_id, client.id));
    const business = await loadBusiness(t.app);
    const templates = await loadTemplates(t.app.db);
    const rules = await loadRules(t.app);
    const replay = {
      clientId: client.id,
      cause: { kind: "admin-suspend" } as const,
      causeKey: event.cause_key,
      rules,
      actor: adminActor({} as never),
    };
    const queued = await t.app.db.transaction(async (tx) => {
      const result = await applyChange(tx, replay);
      expect(result.applied).toBe(false);
      return queueLineNotice(tx, replay, result, { business, templates });
    });
    expect(queued).toBe(false);
    // A second suspension is refused (409) and tells no one.
    expect((await admin.call({ method: "POST", url: `/api/admin/clients/${client.id}/suspend` })).statusCode).toBe(409);
    expect(await messagesFor(client.id, "line-suspended")).toHaveLength(1);
  });

  it("reactivate: 'Line restored' in the owner's own words, saying until when the line runs", async () => {
    await t.app.db.insert(messageTemplates).values({
      kind: "line-restored",
      subject: "{{business}}: welcome back, {{name}}",
      body: "Hi {{name}}, you're back on.\n{{restored_note}}\n{{sign_off}}",
    });
    const client = await makeClient("lerato.k", { whatsapp: "+27 82 555 0101", communication_method: "whatsapp" });
    expect((await admin.call({ method: "POST", url: `/api/admin/clients/${client.id}/suspend` })).statusCode).toBe(200);
    const res = await admin.call({ method: "POST", url: `/api/admin/clients/${client.id}/reactivate` });
    expect(res.statusCode, res.body).toBe(200);
    // sent once the panel has switched the line back on (manual-reactivation.test.ts has the waiting)
    await t.app.provisioning.drain();
    const restored = await messagesFor(client.id, "line-restored");
    expect(restored).toHaveLength(1);
    // The WhatsApp row keeps the owner's own subject: the owner's queue and any e-mail copy read it.
    expect(restored[0]).toMatchObject({ channel: "whatsapp", recipient: "27825550101", subject: "StreamDesk: welcome back, Sipho" });
    expect(restored[0].body).toContain("Hi Sipho, you're back on.");
    expect(restored[0].body).toContain(`switched back on with the same login details, active until ${formatDate(end)}`);
    await t.app.db.delete(messageTemplates).where(eq(messageTemplates.kind, "line-restored"));
  });

  it("a reactivated client whose term has ended is told to renew first", async () => {
    const client = await makeClient("nomsa.z", { subscription_end: new Date(Date.now() - 10 * DAY), status: "expired" });
    await admin.call({ method: "POST", url: `/api/admin/clients/${client.id}/suspend` });
    await admin.call({ method: "POST", url: `/api/admin/clients/${client.id}/reactivate` });
    const [restored] = await messagesFor(client.id, "line-restored");
    expect(restored.subject).toMatch(/: we've lifted the hold on your account$/);
    expect(restored.body).toMatch(/so your line stays off until you renew: http.*\/client\?renew=1/);
  });

  it("on WhatsApp with an e-mail address too: the WhatsApp row and the outbox's e-mail copy both read the kind's own subject", async () => {
    const client = await makeClient("thabo.m", {
      full_name: "Thabo Mokoena",
      whatsapp: "+27 82 555 0102",
      communication_method: "whatsapp",
    });
    expect((await admin.call({ method: "POST", url: `/api/admin/clients/${client.id}/suspend` })).statusCode).toBe(200);
    const [whatsapp, ...more] = await messagesFor(client.id, "line-suspended");
    expect(more).toHaveLength(0);
    expect(whatsapp).toMatchObject({ channel: "whatsapp", subject: expect.stringMatching(/: your service is on hold$/) });
    expect(whatsapp.body).toContain("Hi Thabo,");
    // Without the Cloud API the worker hands it to the owner and copies it by e-mail, under the same subject.
    await t.app.outbox.drain();
    const [copy] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, client.id), eq(outbox.dedupe_key, `${whatsapp.dedupe_key}:email-copy`)));
    expect(copy).toMatchObject({ channel: "email", recipient: "thabo.m@example.test", subject: whatsapp.subject });
    expect(copy.subject).not.toContain("a message for you");
  });

  it("a client with no line yet: the hold speaks of the portal only, and lifting it says the line is being made", async () => {
    const client = await makeClient("zanele.k", { full_name: "Zanele Khumalo", panel_line_id: null });
    expect((await admin.call({ method: "POST", url: `/api/admin/clients/${client.id}/suspend` })).statusCode).toBe(200);
    const [held] = await messagesFor(client.id, "line-suspended");
    expect(held.body).toContain("(Premium) on hold, so your client portal is paused for now.");
    expect(held.body).not.toContain("line is switched off");
    expect((await admin.call({ method: "POST", url: `/api/admin/clients/${client.id}/reactivate` })).statusCode).toBe(200);
    const [restored] = await messagesFor(client.id, "line-restored");
    expect(restored.body).toContain("Your line is being made now: its login details follow in a separate message");
    expect(restored.body).toContain(`Your subscription is active until ${formatDate(end)}.`);
    expect(restored.body).not.toContain("switched back on with the same login details");
  });
});
