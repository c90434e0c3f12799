// Issue 25 (say only what happened): "Line restored" is sent when the line is back on. In manual
// panel mode the owner switches it on by hand through a task, so the customer hears nothing
// until the owner marks that task done, then exactly once, even when "done" is posted twice at
// once; a client suspended again before the task is done is not told it is back. With a panel
// API (our fake Xtream panel) it goes once the worker's enable call succeeded: a panel that
// refuses tells the client nothing, and the owner's Retry that works tells them then, once.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { clients, outbox, provisioningJobs } from "@/server/db/schema";
import { createTestApp, type TestApp } from "@/server/testing";
import { formatDate } from "@/shared/dates";
import { type SignedIn, signInAdmin } from "./test-admin";

const PUBLIC_URL = "http://localhost:8080";
const DAY = 24 * 60 * 60 * 1000;
const end = new Date(Date.now() + 20 * DAY);

let numbers = 0;
const clientValues = (username: string, lineId: string) => ({
  username,
  password_hash: "x",
  full_name: "Sipho Dlamini",
  status: "active",
  package_name: "Premium",
  subscription_start: new Date(),
  subscription_end: end,
  // one standing client per number
  whatsapp: `2782555${String(111 + numbers++).padStart(4, "0")}`,
  communication_method: "whatsapp",
  panel_line_id: lineId,
  line_username: `${username}-line`,
  line_enabled: true,
});

/** The line-restored rows of a client, as queued (an e-mail copy the outbox may make left out). */
const restoredFor = async (app: TestApp["app"], clientId: string) =>
  (
    await app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "line-restored")))
  ).filter((m) => !m.dedupe_key?.endsWith(":email-copy"));

describe("manual panel mode: 'Line restored' waits for the owner's enable task", () => {
  let t: TestApp;
  let owner: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL, PANEL_MODE: "manual", PANEL_STREAM_URL: "http://stream.example.net:8080" }, { seed: false });
    owner = await signInAdmin(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A client whose line the owner switched off by hand after a suspension; the task list as it is then. */
  async function suspendedClient(username: string) {
    const [client] = await t.app.db
      .insert(clients)
      .values(clientValues(username, `manual:${username}`))
      .returning();
    expect((await owner.call({ method: "POST", url: `/api/admin/clients/${client.id}/suspend` })).statusCode).toBe(200);
    await t.app.provisioning.drain();
    const [off] = await t.app.db
      .select()
      .from(provisioningJobs)
      .where(and(eq(provisioningJobs.client_id, client.id), eq(provisioningJobs.action, "disable_line")));
    expect(off.status).toBe("task");
    expect((await owner.call({ method: "POST", url: `/api/admin/provisioning/${off.id}/complete`, payload: {} })).statusCode).toBe(200);
    return client;
  }

  const enableTask = async (clientId: string) =>
    (
      await t.app.db
        .select()
        .from(provisioningJobs)
        .where(and(eq(provisioningJobs.client_id, clientId), eq(provisioningJobs.action, "enable_line")))
    )[0];

  it("no message until the task is marked done; then exactly one, though 'done' is posted twice at once", async () => {
    const client = await suspendedClient("sipho.manual");
    const res = await owner.call({ method: "POST", url: `/api/admin/clients/${client.id}/reactivate` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe("active");
    await t.app.provisioning.drain();
    await t.app.outbox.drain();

    // The task waits for the owner, and says the customer hears of it only when it is done.
    const task = await enableTask(client.id);
    expect(task.status).toBe("task");
    expect(task.instruction).toContain("Switch the line sipho.manual-line of Sipho Dlamini");
    expect(task.instruction).toContain("Sipho Dlamini is told their line is back on when you mark it done, not before.");
    const listed = await owner.call({ method: "GET", url: "/api/admin/provisioning?status=task" });
    expect(listed.json().data.map((j: { id: string }) => j.id)).toContain(task.id);
    // The reactivation and both workers' passes are over: nothing claims the line works.
    expect(await restoredFor(t.app, client.id)).toHaveLength(0);

    const done = await Promise.all(
      [1, 2].map(() => owner.call({ method: "POST", url: `/api/admin/provisioning/${task.id}/complete`, payload: {} })),
    );
    expect(done.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [restored, ...more] = await restoredFor(t.app, client.id);
    expect(more).toHaveLength(0);
    expect(restored).toMatchObject({
      channel: "whatsapp",
      recipient: client.whatsapp,
      dedupe_key: expect.stringMatching(/^reactivate:.*:notice$/),
    });
    expect(restored.body).toContain(`Your line is switched back on with the same login details, active until ${formatDate(end)}.`);
    const [after] = await t.app.db.select().from(clients).where(eq(clients.id, client.id));
    expect(after.line_enabled).toBe(true);

    // A third "done" is refused and queues nothing more.
    expect((await owner.call({ method: "POST", url: `/api/admin/provisioning/${task.id}/complete`, payload: {} })).statusCode).toBe(409);
    expect(await restoredFor(t.app, client.id)).toHaveLength(1);
  });

  it("suspended again before the task is done: marking it done tells the customer nothing", async () => {
    const client = await suspendedClient("lerato.manual");
    expect((await owner.call({ method: "POST", url: `/api/admin/clients/${client.id}/reactivate` })).statusCode).toBe(200);
    await t.app.provisioning.drain();
    const task = await enableTask(client.id);
    expect(task.status).toBe("task");
    expect((await owner.call({ method: "POST", url: `/api/admin/clients/${client.id}/suspend` })).statusCode).toBe(200);
    const res = await owner.call({ method: "POST", url: `/api/admin/provisioning/${task.id}/complete`, payload: {} });
    expect(res.statusCode).toBe(200);
    await t.app.outbox.drain();
    expect(await restoredFor(t.app, client.id)).toHaveLength(0);
  });

  it("a reactivation that switches nothing on (the term has ended) is told at once: it claims no line works", async () => {
    const [client] = await t.app.db
      .insert(clients)
      .values({ ...clientValues("nomsa.manual", "manual:nomsa"), status: "expired", subscription_end: new Date(Date.now() - 10 * DAY) })
      .returning();
    expect((await owner.call({ method: "POST", url: `/api/admin/clients/${client.id}/suspend` })).statusCode).toBe(200);
    expect((await owner.call({ method: "POST", url: `/api/admin/clients/${client.id}/reactivate` })).statusCode).toBe(200);
    expect(await enableTask(client.id)).toBeUndefined();
    const [restored, ...more] = await restoredFor(t.app, client.id);
    expect(more).toHaveLength(0);
    expect(restored.body).toContain("so your line stays off until you renew");
  });
});

describe("panel API mode: 'Line restored' goes once the panel has switched the line on", () => {
  let t: TestApp;
  let panel: FakeXtreamPanel;
  let owner: SignedIn;

  beforeAll(async () => {
    panel = await startFakeXtreamPanel();
    t = await createTestApp(
      { PUBLIC_URL, PANEL_API_URL: panel.url, PANEL_API_KEY: panel.apiKey, PANEL_TIMEOUT_MS: 2_000 },
      { seed: false },
    );
    owner = await signInAdmin(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await panel?.close();
  });

  /** A client with line `lineId` on the fake panel, suspended and switched off there. */
  async function suspendedOnPanel(username: string, lineId: string) {
    panel.lines.set(lineId, {
      id: lineId,
      username: `${username}-line`,
      password: "pw",
      package: "1",
      trial: false,
      exp_date: Math.floor(end.getTime() / 1000),
      enabled: true,
      contact: "",
      reseller_notes: "",
      max_connections: 1,
      type: "m3u",
      mac: "",
      device_id: "",
    });
    const [client] = await t.app.db.insert(clients).values(clientValues(username, lineId)).returning();
    expect((await owner.call({ method: "POST", url: `/api/admin/clients/${client.id}/suspend` })).statusCode).toBe(200);
    await t.app.provisioning.drain();
    expect(panel.lines.get(lineId)?.enabled).toBe(false);
    return client;
  }

  const enableJob = async (clientId: string) =>
    (
      await t.app.db
        .select()
        .from(provisioningJobs)
        .where(and(eq(provisioningJobs.client_id, clientId), eq(provisioningJobs.action, "enable_line")))
    )[0];

  it("nothing with the reactivation; exactly one once the worker switched the line on, however often it runs", async () => {
    const client = await suspendedOnPanel("thabo.api", "501");
    expect((await owner.call({ method: "POST", url: `/api/admin/clients/${client.id}/reactivate` })).statusCode).toBe(200);
    expect(await restoredFor(t.app, client.id)).toHaveLength(0);
    await Promise.all([t.app.provisioning.drain(), t.app.provisioning.drain()]);
    await t.app.provisioning.drain();
    expect(panel.lines.get("501")?.enabled).toBe(true);
    expect((await enableJob(client.id)).status).toBe("done");
    const [restored, ...more] = await restoredFor(t.app, client.id);
    expect(more).toHaveLength(0);
    expect(restored.body).toContain(`Your line is switched back on with the same login details, active until ${formatDate(end)}.`);
  });

  it("a panel that refuses the switch-on tells the client nothing; the owner's Retry that works tells them once", async () => {
    const client = await suspendedOnPanel("lerato.api", "502");
    expect((await owner.call({ method: "POST", url: `/api/admin/clients/${client.id}/reactivate` })).statusCode).toBe(200);
    panel.failNext("<html>502 Bad Gateway</html>");
    await t.app.provisioning.drain();
    const failed = await enableJob(client.id);
    expect(failed).toMatchObject({ status: "failed", error_status: "BAD_ANSWER" });
    expect(panel.lines.get("502")?.enabled).toBe(false);
    await t.app.outbox.drain();
    expect(await restoredFor(t.app, client.id)).toHaveLength(0);

    expect((await owner.call({ method: "POST", url: `/api/admin/provisioning/${failed.id}/retry` })).statusCode).toBe(200);
    await t.app.provisioning.drain();
    expect(panel.lines.get("502")?.enabled).toBe(true);
    expect(await restoredFor(t.app, client.id)).toHaveLength(1);
  });
});
