// No second line after an answer that was lost (issue 32 item 4), against the fake reseller
// panel: a create_line that timed out or got a 5xx — after the panel made the line, or before —
// is neither left for the owner nor sent blindly again. The job's login is derived from its key;
// the next attempt looks that username up with get_lines' search and adopts the line it finds,
// or makes it when it is not there. Two workers at once, a process that died mid-call: one line.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { createXtreamPanel } from "@/server/adapters/panel/xtream";
import { clients, outbox, packages, provisioningJobs } from "@/server/db/schema";
import { ProvisioningWorker } from "@/server/jobs/provisioning-worker";
import { lineCredentials } from "@/server/lib/provisioning";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { type OtherProcess, secondProcess, startTogether } from "@/server/test-support/race";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";

const PUBLIC_URL = "http://localhost:8080";

let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
/** a second worker with its own connection to the panel: another process */
let other: ProvisioningWorker;
let second: OtherProcess | undefined;
let monthId: string;
let n = 0;

beforeAll(async () => {
  fake = await startFakeXtreamPanel();
  fake.hangMs = 1_200;
  t = await createTestApp(
    {
      PUBLIC_URL,
      PANEL_API_URL: fake.url,
      PANEL_API_KEY: fake.apiKey,
      PANEL_STREAM_URL: "http://stream.example.net",
      PANEL_TIMEOUT_MS: 500,
    },
    { seed: true },
  );
  admin = await signInAdmin(t.app);
  // The second worker: on PostgreSQL another server process (an app and a pool of its own); on
  // PGlite, whose one connection lets two workers only take turns, a second worker on this app.
  if (onPostgres()) second = await secondProcess(t);
  other = new ProvisioningWorker(
    second?.app ?? t.app,
    createXtreamPanel({ apiUrl: fake.url, apiKey: fake.apiKey, timeoutMs: 500, retryDelaysMs: [1] }),
  );
  [{ id: monthId }] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "Month to Month"));
  const mapped = await admin.call({ method: "PUT", url: "/api/admin/panel/mapping", payload: { packages: { [monthId]: "1" } } });
  expect(mapped.statusCode).toBe(200);
});
afterAll(async () => {
  await second?.close();
  await t?.close();
  await fake?.close();
});
beforeEach(() => {
  fake.calls.length = 0;
});

/** A client who has just paid for a month: one create_line job queued. */
async function paidClient(name: string) {
  const created = await admin.call({
    method: "POST",
    url: "/api/admin/clients",
    payload: { full_name: name, whatsapp: `082 555 ${String(1000 + ++n)}` },
  });
  expect(created.statusCode, created.body).toBe(201);
  const clientId = created.json().client.id as string;
  const paid = await admin.call({
    method: "POST",
    url: "/api/admin/payments",
    payload: { client_id: clientId, package_id: monthId, amount: 250 },
  });
  expect(paid.statusCode, paid.body).toBe(201);
  const [job] = await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.client_id, clientId));
  return { clientId, job };
}

const jobRow = async (id: string) => (await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.id, id)))[0];
const linesOf = (name: string) => [...fake.lines.values()].filter((l) => l.contact.startsWith(name));
const makeDue = (id: string) => t.app.db.update(provisioningJobs).set({ next_attempt_at: new Date() }).where(eq(provisioningJobs.id, id));
/** Both workers drain; on PostgreSQL, each claim waits behind the lock on the jobs and both go at the same moment. */
const bothWorkers = () => {
  const race = () => Promise.all([t.app.provisioning.drain(), other.drain()]);
  return second ? startTogether(t.database.url as string, "LOCK TABLE provisioning_jobs IN EXCLUSIVE MODE", 2, race) : race();
};

async function expectOneLineAdopted(name: string, clientId: string, jobId: string) {
  const lines = linesOf(name);
  expect(lines).toHaveLength(1);
  const [client] = await t.app.db.select().from(clients).where(eq(clients.id, clientId));
  expect(client).toMatchObject({ panel_line_id: lines[0].id, line_username: lines[0].username, line_password: lines[0].password });
  expect(await jobRow(jobId)).toMatchObject({ status: "done", error_status: "" });
  // The login goes out once, on each channel, whichever attempt found the line.
  const sent = await t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "credentials")));
  expect(sent.map((m) => m.channel)).toEqual(["whatsapp"]);
}

describe("a create_line whose answer was lost", () => {
  it("the job's login is derived from its key: the same on every call, another for another job", async () => {
    const a = await lineCredentials(t.app.db, "payment:abc:create_line");
    expect(await lineCredentials(t.app.db, "payment:abc:create_line")).toEqual(a);
    expect((await lineCredentials(t.app.db, "payment:abd:create_line")).username).not.toBe(a.username);
    expect(a.username).toMatch(/^sd[a-z2-9]{8}$/);
    expect(a.password).toMatch(/^[a-z2-9]{14}$/);
  });

  it(`timed out after the panel made the line: retried, not failed; the next attempt (two workers, ${onPostgres() ? "on two processes let go together" : "taking turns on PGlite's one connection"}) finds it and adopts it — one line, one create_line`, async () => {
    fake.loseAnswer("create_line", { when: "after", as: "timeout" });
    const { clientId, job } = await paidClient("Thandi Timeout");
    await t.app.provisioning.drain();
    const waiting = await jobRow(job.id);
    // Not the owner's problem and not resent at once: pending with backoff.
    expect(waiting).toMatchObject({ status: "pending", error_status: "TIMEOUT", attempts: 1 });
    expect(waiting.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    expect(linesOf("Thandi Timeout")).toHaveLength(1);
    const login = await lineCredentials(t.app.db, job.cause_key);
    expect(linesOf("Thandi Timeout")[0]).toMatchObject({ username: login.username, password: login.password });

    await makeDue(job.id);
    await bothWorkers();
    await bothWorkers();
    expect(fake.callsOf("create_line")).toHaveLength(1);
    const lookups = fake.callsOf("get_lines");
    expect(lookups.length).toBeGreaterThanOrEqual(2);
    await expectOneLineAdopted("Thandi Timeout", clientId, job.id);
  });

  it("a 5xx after the panel made the line: the same — found and adopted, never made twice", async () => {
    fake.loseAnswer("create_line", { when: "after", as: "5xx" });
    const { clientId, job } = await paidClient("Sipho Fivehundred");
    await bothWorkers();
    expect(await jobRow(job.id)).toMatchObject({ status: "pending", error_status: "HTTP_5XX" });
    await makeDue(job.id);
    await bothWorkers();
    expect(fake.callsOf("create_line")).toHaveLength(1);
    await expectOneLineAdopted("Sipho Fivehundred", clientId, job.id);
  });

  it("timed out before the panel did anything: the lookup finds nothing, so it is made once", async () => {
    fake.loseAnswer("create_line", { when: "before", as: "timeout" });
    const { clientId, job } = await paidClient("Lerato Lost");
    await t.app.provisioning.drain();
    expect(linesOf("Lerato Lost")).toHaveLength(0);
    await makeDue(job.id);
    await bothWorkers();
    expect(fake.callsOf("create_line")).toHaveLength(2);
    await expectOneLineAdopted("Lerato Lost", clientId, job.id);
  });

  it("a process that died mid-create: its job goes again and adopts the line it had made", async () => {
    // The panel made the line; the process died before it heard (the job stays 'running').
    fake.loseAnswer("create_line", { when: "after", as: "timeout" });
    const { clientId, job } = await paidClient("Bongani Crash");
    const claimed = await other.claim();
    expect(claimed?.id).toBe(job.id);
    await other.panel
      .createLine({ package: "1", trial: false, contact: "Bongani Crash", notes: "", ...(await lineCredentials(t.app.db, job.cause_key)) })
      .catch(() => undefined);
    await t.app.db
      .update(provisioningJobs)
      .set({ updated_at: new Date(Date.now() - 11 * 60_000) })
      .where(eq(provisioningJobs.id, job.id));
    await bothWorkers();
    expect(fake.callsOf("create_line")).toHaveLength(1);
    await expectOneLineAdopted("Bongani Crash", clientId, job.id);
  });
});
