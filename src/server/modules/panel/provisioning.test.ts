// Paid means provisioned, against a fake Xtream-family reseller panel on a free port: a
// payment makes one create_line on the mapped package and the credentials go out at once;
// a replayed callback and two workers still make one; a renewal is one edit_line; suspension
// and reactivation switch the line off and on; a free trial is a trial line; no credits or a
// panel that is down leave a failed job for the owner (order and payment never lost) that a
// Retry finishes once. The API key never shows. Manual mode: a task the owner completes.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_PACKAGES, type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { auditLog, capturedPayments, clients, outbox, packages, provisioningJobs } from "@/server/db/schema";
import { withSecret } from "@/server/lib/outbox";
import { open } from "@/server/lib/secret-box";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { deliverSandboxAgain, type PaidPayment, payOnSandbox } from "@/server/test-support/sandbox-payments";
import { createTestApp, type TestApp } from "@/server/testing";
import { runPanelSync } from "./sync";

const PUBLIC_URL = "http://localhost:8080";
const SANDBOX_SECRET = "panel-test-sandbox-secret";
const STREAM = "http://stream.example.net:8080";

let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
const pkgId: Record<string, string> = {};
let counter = 0;

beforeAll(async () => {
  fake = await startFakeXtreamPanel();
  t = await createTestApp(
    { PUBLIC_URL, SANDBOX_SECRET, PANEL_API_URL: fake.url, PANEL_API_KEY: fake.apiKey, PANEL_STREAM_URL: STREAM, PANEL_TIMEOUT_MS: 500 },
    { seed: true },
  );
  admin = await signInAdmin(t.app);
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const ip = () => `10.7.${Math.floor(++counter / 250)}.${counter % 250}`;
const payer = (name: string, whatsapp: string) => ({ name, whatsapp, immediateStartConsent: true });

const payAsVisitor = (name: string, whatsapp: string, packageName: string) =>
  payOnSandbox(t.app, { ...payer(name, whatsapp), packageId: pkgId[packageName] }, ip());

const deliverAgain = (payment: PaidPayment) => deliverSandboxAgain(t.app, payment, SANDBOX_SECRET);

const jobsOf = (clientId: string) =>
  t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.client_id, clientId)).orderBy(provisioningJobs.created_at);
const clientRow = async (id: string) => (await t.app.db.select().from(clients).where(eq(clients.id, id)))[0];

describe("the panel in the dashboard", () => {
  it("reads credits and packages from the panel, and maps ours onto them (400 for a package the panel lacks)", async () => {
    const view = await admin.call({ method: "GET", url: "/api/admin/panel" });
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({
      mode: "xtream",
      connected: true,
      credits: 100,
      low_credits: false,
      mapping: {},
      trial_package_id: null,
      error: null,
    });
    // A real reseller's panel: every one of its 47 packages is listed, the three we map among them.
    const listed = view.json().packages.map((p: { id: string }) => p.id);
    expect(listed).toHaveLength(FAKE_PACKAGES.length);
    expect(FAKE_PACKAGES.length).toBeGreaterThanOrEqual(40);
    expect(listed.slice(0, 3)).toEqual(["1", "3", "9"]);
    expect(view.body).not.toContain(fake.apiKey);

    const bad = await admin.call({ method: "PUT", url: "/api/admin/panel/mapping", payload: { packages: { [pkgId["3 Months"]]: "77" } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields[`packages.${pkgId["3 Months"]}`]).toBe("The panel has no such package.");

    const saved = await admin.call({
      method: "PUT",
      url: "/api/admin/panel/mapping",
      payload: { packages: { [pkgId["3 Months"]]: "3", [pkgId["Month to Month"]]: "1" }, trial: "9" },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ mapping: { [pkgId["3 Months"]]: "3", [pkgId["Month to Month"]]: "1" }, trial_package_id: "9" });
    const [entry] = await t.app.db.select().from(auditLog).where(eq(auditLog.resource, "panel_mapping"));
    expect(JSON.stringify(entry)).not.toContain(fake.apiKey);
  });
});

describe("paid means provisioned", () => {
  let clientId: string;

  it("a payment makes one create_line on the mapped package; the line and its credentials reach the client at once", async () => {
    const payment = await payAsVisitor("Nomsa Dlamini", "082 444 1001", "3 Months");
    clientId = payment.client_id as string;
    // A replayed callback and two workers at once: still one line.
    expect((await deliverAgain(payment)).statusCode).toBe(200);
    await Promise.all([t.app.provisioning.drain(), t.app.provisioning.drain()]);
    expect((await deliverAgain(payment)).statusCode).toBe(200);
    await t.app.provisioning.drain();

    const creates = fake.callsOf("create_line");
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatchObject({ method: "POST", form: { package: "3", trial: "0" } });
    expect(creates[0].form.contact).toContain("Nomsa Dlamini");
    const client = await clientRow(clientId);
    const line = fake.made()[0];
    expect(client).toMatchObject({
      panel_line_id: line.id,
      line_username: line.username,
      line_password: line.password,
      line_enabled: true,
      line_is_test: false,
      line_portal_url: STREAM,
    });
    expect(client.line_expires_at?.getTime()).toBe(line.exp_date * 1000);
    expect((await jobsOf(clientId)).map((j) => [j.action, j.status])).toEqual([["create_line", "done"]]);

    const [credentials] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "credentials")));
    expect(credentials).toMatchObject({ channel: "whatsapp", recipient: "27824441001" });
    // The password is the line itself: never stored readable, put in only as the message is sent.
    expect(credentials.body).not.toContain(line.password);
    expect(credentials.secret_enc).not.toBeNull();
    const delivered = withSecret(credentials.body, await open(t.app.db, credentials.secret_enc as string));
    for (const text of [
      `Server URL: ${STREAM}`,
      `Username: ${line.username}`,
      `Password: ${line.password}`,
      `${STREAM}/get.php?username=${line.username}&password=${line.password}&type=m3u_plus&output=ts`,
      `${STREAM}/xmltv.php?username=${line.username}&password=${line.password}`,
      `${PUBLIC_URL}/client`,
    ]) {
      expect(delivered).toContain(text);
    }
  });

  it("a renewal is one edit_line on the same line (the panel adds the package's time)", async () => {
    const before = fake.made()[0].exp_date;
    const recorded = await admin.call({
      method: "POST",
      url: "/api/admin/payments",
      payload: { client_id: clientId, package_id: pkgId["3 Months"], amount: 1450, note: "EFT seen" },
    });
    expect(recorded.statusCode).toBe(201);
    await Promise.all([t.app.provisioning.drain(), t.app.provisioning.drain()]);
    expect(fake.callsOf("edit_line")).toHaveLength(1);
    expect(fake.callsOf("edit_line")[0].form).toEqual({ id: fake.made()[0].id, package: "3" });
    expect(fake.callsOf("create_line")).toHaveLength(1);
    expect(fake.made()[0].exp_date).toBeGreaterThan(before);
  });

  it("suspending switches the line off on the panel; reactivating switches it back on", async () => {
    await admin.call({ method: "POST", url: `/api/admin/clients/${clientId}/suspend` });
    await t.app.provisioning.drain();
    expect(fake.callsOf("disable_line")).toHaveLength(1);
    expect(fake.made()[0].enabled).toBe(false);
    expect((await clientRow(clientId)).line_enabled).toBe(false);
    await admin.call({ method: "POST", url: `/api/admin/clients/${clientId}/reactivate` });
    await t.app.provisioning.drain();
    expect(fake.callsOf("enable_line")).toHaveLength(1);
    expect((await clientRow(clientId)).line_enabled).toBe(true);
  });

  it("a free trial makes a trial line (trial=1) on the trial package", async () => {
    // The owner converts it (approve mode; with the trial package mapped the default would be instant, see modules/trials).
    const mode = await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: "trial_mode", value: "approve" } });
    expect(mode.statusCode).toBe(201);
    const order = await t.app.inject({
      method: "POST",
      url: "/api/orders",
      payload: {
        name: "Trial Person",
        email: "trial.person@example.co.za",
        whatsapp: "082 444 1002",
        duration: "free-trial",
        formType: "free-trial",
      },
      remoteAddress: ip(),
    });
    expect(order.statusCode).toBe(201);
    const converted = await admin.call({ method: "POST", url: `/api/admin/leads/${order.json().id}/convert`, payload: {} });
    expect(converted.json().client.status).toBe("trial");
    await t.app.provisioning.drain();
    const trialCreates = fake.callsOf("create_line").filter((c) => c.form.trial === "1");
    expect(trialCreates).toHaveLength(1);
    expect(trialCreates[0].form.package).toBe("9");
  });
});

describe("the nightly sync", () => {
  it("flags a client whose line the panel has switched off or ends on another day, without touching our term", async () => {
    const [client] = await t.app.db.select().from(clients).where(eq(clients.full_name, "Nomsa Dlamini"));
    const end = client.subscription_end;
    const line = fake.lines.get(client.panel_line_id as string);
    if (!line) throw new Error("no line");
    line.enabled = false;
    line.exp_date -= 10 * 86_400;
    // Once a night, however many processes: the first claims it, a second run that night does nothing.
    const first = await runPanelSync(t.app);
    expect(first?.flagged).toBeGreaterThanOrEqual(1);
    expect(await runPanelSync(t.app)).toBeNull();
    const [after] = await t.app.db.select().from(clients).where(eq(clients.id, client.id));
    expect(after.line_sync_issue).toContain("The panel has the line switched off, but the client should be watching.");
    expect(after.line_sync_issue).toMatch(/The panel's line ends on .*, our term on /);
    expect(after.subscription_end?.getTime()).toBe(end?.getTime());
    expect(after.line_enabled).toBe(false);

    // The panel agrees again (on our end to the second: month lengths are counted differently near a month's end).
    line.enabled = true;
    line.exp_date = Math.floor((end?.getTime() ?? 0) / 1000);
    await runPanelSync(t.app, { force: true });
    expect((await clientRow(client.id)).line_sync_issue).toBe("");
  });
});

describe("when the panel says no, or is down", () => {
  it("no credits: a failed job with the panel's words and a dashboard alert; Retry finishes it once credits are back", async () => {
    fake.credits = 0;
    const payment = await payAsVisitor("Broke Reseller Client", "082 444 1003", "Month to Month");
    await t.app.provisioning.drain();
    const [job] = await jobsOf(payment.client_id as string);
    expect(job).toMatchObject({ action: "create_line", status: "failed", error_status: "STATUS_INSUFFICIENT_CREDITS" });
    expect(job.last_error).toContain("not enough credits");
    expect(job.panel_answer).toContain("STATUS_INSUFFICIENT_CREDITS");
    // The money is kept whatever the panel said.
    expect((await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.id, payment.id)))[0].status).toBe("paid");
    const failed = (await admin.call({ method: "GET", url: "/api/admin/provisioning?status=failed" })).json().data;
    expect(failed.map((j: { id: string }) => j.id)).toContain(job.id);
    expect((await admin.call({ method: "GET", url: "/api/admin/panel" })).json()).toMatchObject({ credits: 0, low_credits: true });

    fake.credits = 50;
    const retried = await admin.call({ method: "POST", url: `/api/admin/provisioning/${job.id}/retry` });
    expect(retried.statusCode).toBe(200);
    await Promise.all([t.app.provisioning.drain(), t.app.provisioning.drain()]);
    expect((await jobsOf(payment.client_id as string))[0].status).toBe("done");
    expect((await clientRow(payment.client_id as string)).panel_line_id).not.toBeNull();
    expect((await admin.call({ method: "POST", url: `/api/admin/provisioning/${job.id}/retry` })).statusCode).toBe(409);
  });

  it("a panel that fails for now is retried with backoff; an answer that is not JSON is kept for the owner", async () => {
    fake.failNext({ status: "STATUS_FAILURE", error: "busy" });
    const payment = await payAsVisitor("Busy Panel Client", "082 444 1004", "Month to Month");
    await t.app.provisioning.drain();
    let [job] = await jobsOf(payment.client_id as string);
    expect(job).toMatchObject({ status: "pending", error_status: "STATUS_FAILURE", attempts: 1 });
    expect(job.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    await t.app.db.update(provisioningJobs).set({ next_attempt_at: new Date() }).where(eq(provisioningJobs.id, job.id));
    await t.app.provisioning.drain();
    [job] = await jobsOf(payment.client_id as string);
    expect(job.status).toBe("done");

    fake.failNext("<html>502 Bad Gateway</html>");
    const second = await payAsVisitor("Broken Panel Client", "082 444 1005", "Month to Month");
    await t.app.provisioning.drain();
    const [broken] = await jobsOf(second.client_id as string);
    expect(broken).toMatchObject({ status: "failed", error_status: "BAD_ANSWER" });
    expect(broken.panel_answer).toContain("502 Bad Gateway");
  });

  it("a create that times out is not failed for the owner nor resent blindly: it waits, to be looked up first (ambiguous-create.test.ts)", async () => {
    fake.loseAnswer("create_line", { when: "after", as: "timeout" });
    const payment = await payAsVisitor("Slow Panel Client", "082 444 1006", "Month to Month");
    const creates = fake.callsOf("create_line").length;
    await t.app.provisioning.drain();
    const [job] = await jobsOf(payment.client_id as string);
    expect(job).toMatchObject({ status: "pending", error_status: "TIMEOUT" });
    expect(job.next_attempt_at.getTime()).toBeGreaterThan(Date.now());
    expect(fake.callsOf("create_line").length).toBe(creates + 1);
  });

  it("never shows the API key: not in jobs, answers or the audit log", async () => {
    const jobs = await admin.call({ method: "GET", url: "/api/admin/provisioning" });
    expect(jobs.body).not.toContain(fake.apiKey);
    const audit = await t.app.db.select().from(auditLog);
    expect(JSON.stringify(audit)).not.toContain(fake.apiKey);
    const stored = await t.app.db.select().from(provisioningJobs);
    expect(JSON.stringify(stored)).not.toContain(fake.apiKey);
  });
});

describe("manual mode (PANEL_MODE=manual)", () => {
  let manual: TestApp;
  let owner: SignedIn;

  beforeAll(async () => {
    manual = await createTestApp({ PUBLIC_URL, PANEL_MODE: "manual", PANEL_STREAM_URL: STREAM }, { seed: true });
    owner = await signInAdmin(manual.app);
  });
  afterAll(async () => {
    await manual?.close();
  });

  it("a payment becomes a task worded for the owner; pasting the login finishes it and sends the credentials", async () => {
    const [pkg] = await manual.app.db.select().from(packages).where(eq(packages.name, "3 Months"));
    const created = await owner.call({
      method: "POST",
      url: "/api/admin/clients",
      payload: { full_name: "Nomsa Manual", whatsapp: "082 444 2001" },
    });
    const clientId = created.json().client.id as string;
    await owner.call({ method: "POST", url: "/api/admin/payments", payload: { client_id: clientId, package_id: pkg.id, amount: 1450 } });
    await manual.app.provisioning.drain();
    const [job] = await manual.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.client_id, clientId));
    expect(job.status).toBe("task");
    expect(job.instruction).toContain("Create a 3 Months line for Nomsa Manual (WhatsApp +27824442001) on your panel");

    const missing = await owner.call({
      method: "POST",
      url: `/api/admin/provisioning/${job.id}/complete`,
      payload: { username: "nomsa1" },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields).toEqual({ password: "Paste the line's password from your panel" });
    const done = await owner.call({
      method: "POST",
      url: `/api/admin/provisioning/${job.id}/complete`,
      payload: { username: "nomsa1", password: "s3cret-line" },
    });
    expect(done.statusCode).toBe(200);
    expect(done.json().data.status).toBe("done");
    const [client] = await manual.app.db.select().from(clients).where(eq(clients.id, clientId));
    expect(client).toMatchObject({ line_username: "nomsa1", line_password: "s3cret-line", line_portal_url: STREAM });
    const [message] = await manual.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "credentials")));
    expect(message.body).not.toContain("s3cret-line");
    expect(withSecret(message.body, await open(manual.app.db, message.secret_enc as string))).toContain(
      `${STREAM}/get.php?username=nomsa1&password=s3cret-line&type=m3u_plus&output=ts`,
    );
    expect((await owner.call({ method: "POST", url: `/api/admin/provisioning/${job.id}/complete`, payload: {} })).statusCode).toBe(409);
  });
});
