// Credits that last (issue 32 item 6), against the fake reseller panel: every panel call that
// costs credits is one ledger row (balance before and after from user_info, the package's price,
// the cause, how it ended) — a create, a renewal, a create whose answer was lost after the panel
// charged, a refusal for want of credits — and the rows add up to exactly what the panel's
// balance moved. GET /api/admin/panel adds the runway from the renewals due in 30 days, and the
// nightly sync e-mails the owner once when the credits run out within the alert days. A balance or
// price the panel does not give still makes its row: unknown (null), with a note saying why.
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCachedPanel } from "@/server/adapters/panel/cached";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { clients, outbox, packages, panelCreditLedger, provisioningJobs } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";
import { chargedBy } from "./runway";
import { runPanelSync } from "./sync";

const START_CREDITS = 6;
let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
const pkg: Record<string, string> = {};
let n = 0;
const DAY_MS = 86_400_000;

beforeAll(async () => {
  fake = await startFakeXtreamPanel({ credits: START_CREDITS });
  fake.hangMs = 1_200;
  t = await createTestApp(
    { PUBLIC_URL: "http://localhost:8080", PANEL_API_URL: fake.url, PANEL_API_KEY: fake.apiKey, PANEL_TIMEOUT_MS: 500 },
    { seed: true },
  );
  admin = await signInAdmin(t.app);
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkg[p.name] = p.id;
  const mapped = await admin.call({
    method: "PUT",
    url: "/api/admin/panel/mapping",
    payload: { packages: { [pkg["Month to Month"]]: "1", [pkg["3 Months"]]: "3" } },
  });
  expect(mapped.statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function pays(name: string, packageName: string, clientId?: string) {
  let id = clientId;
  if (!id) {
    const created = await admin.call({
      method: "POST",
      url: "/api/admin/clients",
      payload: { full_name: name, whatsapp: `082 777 ${String(1000 + ++n)}` },
    });
    id = created.json().client.id as string;
  }
  const paid = await admin.call({
    method: "POST",
    url: "/api/admin/payments",
    payload: { client_id: id, package_id: pkg[packageName], amount: 250 },
  });
  expect(paid.statusCode, paid.body).toBe(201);
  return id as string;
}
const ledger = () => t.app.db.select().from(panelCreditLedger).orderBy(panelCreditLedger.created_at);

describe("the credit ledger", () => {
  it("one row per costing call; the rows add up to exactly what the panel's balance moved", async () => {
    // A 1-credit create, a 3-credit create, a 1-credit renewal.
    const nomsa = await pays("Nomsa Ledger", "Month to Month");
    await t.app.provisioning.drain();
    await pays("Pieter Ledger", "3 Months");
    await t.app.provisioning.drain();
    await pays("Nomsa Ledger", "Month to Month", nomsa);
    await t.app.provisioning.drain();
    // The panel charges, then the answer is lost: the row says so; the line adopted next costs nothing more.
    fake.loseAnswer("create_line", { when: "after", as: "5xx" });
    const lost = await pays("Lost Answer", "Month to Month");
    await t.app.provisioning.drain();
    await t.app.db.update(provisioningJobs).set({ next_attempt_at: new Date() }).where(eq(provisioningJobs.client_id, lost));
    await t.app.provisioning.drain();
    // No credits left: refused, nothing charged.
    expect(fake.credits).toBe(0);
    const broke = await pays("No Credits", "Month to Month");
    await t.app.provisioning.drain();

    const rows = await ledger();
    expect(rows.map((r) => [r.action, r.cost, chargedBy(r), r.outcome, r.note])).toEqual([
      ["create_line", 1, 1, "done", ""],
      ["create_line", 3, 3, "done", ""],
      ["extend_line", 1, 1, "done", ""],
      ["create_line", 1, 1, "answer-lost", ""],
      ["create_line", 1, 0, "refused", ""],
    ]);
    const charged = rows.reduce((sum, r) => sum + (chargedBy(r) ?? Number.NaN), 0);
    expect(charged).toBe(START_CREDITS - fake.credits);
    // Each row is its own job's, with the cause that made it.
    const [job] = await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.client_id, broke));
    expect(rows[4]).toMatchObject({ job_id: job.id, client_id: broke, cause_key: job.cause_key, attempt: 1 });
    expect(rows.every((r, i) => i === 0 || r.credits_before === rows[i - 1].credits_after)).toBe(true);

    const view = (await admin.call({ method: "GET", url: "/api/admin/panel" })).json();
    expect(view.ledger).toEqual({ entries_30d: 5, charged_30d: START_CREDITS, last_balance: 0, mismatched: 0, unknown: 0 });
    const listed = (await admin.call({ method: "GET", url: "/api/admin/panel/ledger" })).json();
    expect(listed.total).toBe(5);
    expect(listed.data[0]).toMatchObject({ outcome: "refused", charged: 0 });
  });
});

describe("the runway", () => {
  // The fake's balance changes behind the dashboard's back: each look reads the panel now (the
  // Refresh button), not the read kept for panel_cache_minutes.
  const look = () => admin.call({ method: "POST", url: "/api/admin/panel/refresh" });
  it("renewals due in 30 days priced at their panel packages; the day the credits stop covering them", async () => {
    fake.credits = 2;
    const soon = new Date(Date.now() + 5 * DAY_MS);
    const later = new Date(Date.now() + 20 * DAY_MS);
    const [nomsa] = await t.app.db.select().from(clients).where(eq(clients.full_name, "Nomsa Ledger"));
    const [pieter] = await t.app.db.select().from(clients).where(eq(clients.full_name, "Pieter Ledger"));
    // Nomsa (1 credit) renews in 5 days, Pieter (3 credits) in 20; the rest beyond 30 days.
    await t.app.db.update(clients).set({ subscription_end: soon }).where(eq(clients.id, nomsa.id));
    await t.app.db.update(clients).set({ subscription_end: later }).where(eq(clients.id, pieter.id));
    await t.app.db
      .update(clients)
      .set({ subscription_end: new Date(Date.now() + 60 * DAY_MS) })
      .where(and(eq(clients.status, "active"), inArray(clients.full_name, ["Lost Answer", "No Credits"])));
    const view = (await look()).json();
    const day = new Date(later.getTime() + 2 * 3_600_000).toISOString().slice(0, 10);
    expect(view.runway).toEqual({ runs_out_on: day, renewals_due_30d: 2, credits_needed_30d: 4, credits_known: true });

    fake.credits = 4;
    expect((await look()).json().runway).toEqual({
      runs_out_on: null,
      renewals_due_30d: 2,
      credits_needed_30d: 4,
      credits_known: true,
    });
  });

  it("the owner is e-mailed once when the credits run out within the alert days (setting), not before", async () => {
    fake.credits = 0;
    const alerts = () => t.app.db.select().from(outbox).where(eq(outbox.kind, "panel-runway"));
    const bad = await admin.call({
      method: "POST",
      url: "/api/admin/settings",
      payload: { key: "panel_runway_alert_days", value: "a week" },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.value).toBe("Enter the alert days as a whole number from 0 to 99, e.g. 7");
    // Runs out in 5 days (Nomsa's renewal); an alert 3 days ahead says nothing yet.
    expect(
      (await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: "panel_runway_alert_days", value: "3" } }))
        .statusCode,
    ).toBe(201);
    await runPanelSync(t.app, { force: true });
    expect(await alerts()).toEqual([]);
    expect(
      (await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: "panel_runway_alert_days", value: "7" } }))
        .statusCode,
    ).toBe(200);
    await runPanelSync(t.app, { force: true });
    await runPanelSync(t.app, { force: true });
    const sent = await alerts();
    expect(sent).toHaveLength(1);
    // to the alerts e-mail: the shop's first admin here
    expect(sent[0]).toMatchObject({ channel: "email", recipient: admin.email });
    expect(sent[0].subject).toMatch(/^Panel credits run out on /);
    expect(sent[0].body).toContain("Your panel has 0 credits. The 2 renewals due in the next 30 days need 4");
    expect(sent[0].body).toContain("http://localhost:8080/admin/panel");
  });
});

describe("a ledger row with what the panel did not answer", () => {
  const rowOf = async (clientId: string) => (await ledger()).filter((r) => r.client_id === clientId);

  it("the balance read failing still writes the row: that balance unknown (null), the note says why", async () => {
    fake.credits = 10;
    fake.failNext("<html>502 Bad Gateway</html>", 1, "user_info");
    const id = await pays("Unread Balance", "Month to Month");
    await t.app.provisioning.drain();
    const rows = await rowOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: "create_line", cost: 1, credits_before: null, credits_after: 9, outcome: "done" });
    expect(rows[0].note).toMatch(/^balance before not read: ./);
    expect(chargedBy(rows[0])).toBeNull();
    const view = (await admin.call({ method: "GET", url: "/api/admin/panel" })).json();
    expect(view.ledger).toMatchObject({ last_balance: 9, unknown: 1 });
    const listed = (await admin.call({ method: "GET", url: "/api/admin/panel/ledger" })).json();
    expect(listed.data[0]).toMatchObject({ client_id: id, charged: null, credits_before: null, note: rows[0].note });
  });

  it("the package list failing is a price unknown (null) with a note, never a cost of 0", async () => {
    const panel = t.app.provisioning.panel;
    if (isCachedPanel(panel)) panel.refresh();
    fake.failNext("<html>502 Bad Gateway</html>", 1, "packages");
    const id = await pays("Unread Price", "Month to Month");
    await t.app.provisioning.drain();
    const rows = await rowOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ cost: null, credits_before: 9, credits_after: 8, outcome: "done" });
    expect(rows[0].note).toMatch(/^package list not read: ./);
    expect((await admin.call({ method: "GET", url: "/api/admin/panel" })).json().ledger).toMatchObject({ unknown: 2 });
  });
});
