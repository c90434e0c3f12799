// Drift you can fix (issue 32 item 5), against the fake reseller panel: the sync lists each
// difference (expiry, switched on/off, max connections, a line missing on either side) with both
// values; the owner pushes ours to the panel or accepts the panel's — once under a replay (two
// at once, or sent again), audited, the term changed only through the lifecycle; a side that
// cannot be taken is a 409 in the owner's words, a bad direction a 400 on the field.
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_EXISTING, type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { auditLog, clientLifecycleEvents, clients, packages, panelCreditLedger, panelDrift, provisioningJobs } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { secondProcess, startTogether } from "@/server/test-support/race";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import type { PanelDriftList, PanelDriftView } from "@/shared/business-schemas";
import { chargedBy } from "./runway";

let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
let monthId: string;
let n = 0;
const DAY = 86_400;

beforeAll(async () => {
  fake = await startFakeXtreamPanel();
  t = await createTestApp(
    { PUBLIC_URL: "http://localhost:8080", PANEL_API_URL: fake.url, PANEL_API_KEY: fake.apiKey, PANEL_TIMEOUT_MS: 1_000 },
    { seed: true },
  );
  admin = await signInAdmin(t.app);
  [{ id: monthId }] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "Month to Month"));
  expect((await admin.call({ method: "PUT", url: "/api/admin/panel/mapping", payload: { packages: { [monthId]: "1" } } })).statusCode).toBe(
    200,
  );
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** A paying client with their line made on the panel. */
async function withLine(name: string) {
  const created = await admin.call({
    method: "POST",
    url: "/api/admin/clients",
    payload: { full_name: name, whatsapp: `082 666 ${String(1000 + ++n)}` },
  });
  const clientId = created.json().client.id as string;
  await admin.call({ method: "POST", url: "/api/admin/payments", payload: { client_id: clientId, package_id: monthId, amount: 250 } });
  await t.app.provisioning.drain();
  const client = await clientRow(clientId);
  const line = fake.lines.get(client.panel_line_id as string);
  if (!line) throw new Error("no line made");
  return { clientId, line };
}
const clientRow = async (id: string) => (await t.app.db.select().from(clients).where(eq(clients.id, id)))[0];
const sync = async () => expect((await admin.call({ method: "POST", url: "/api/admin/panel/sync" })).statusCode).toBe(200);
/** The open differences of our clients (the list's first part; the panel's unlinked lines are apart). */
const openDrift = async (): Promise<PanelDriftView[]> =>
  (await admin.call({ method: "GET", url: "/api/admin/panel/drift?kind=clients" })).json().data;
const driftCounts = async (): Promise<PanelDriftList["counts"]> =>
  (await admin.call({ method: "GET", url: "/api/admin/panel/drift?limit=1" })).json().counts;
/** The open "no client of ours has this line" row of one panel line, paged through as the owner would. */
async function unlinkedRow(lineId: string): Promise<PanelDriftView | undefined> {
  for (let offset = 0; ; offset += 500) {
    const page: PanelDriftList = (
      await admin.call({ method: "GET", url: `/api/admin/panel/drift?kind=missing_here&limit=500&offset=${offset}` })
    ).json();
    const found = page.data.find((d) => d.panel_line_id === lineId);
    if (found || page.data.length < 500) return found;
  }
}
const fix = (id: string, direction: string) =>
  admin.call({ method: "POST", url: `/api/admin/panel/drift/${id}/fix`, payload: { direction } });

let expiry: Awaited<ReturnType<typeof withLine>>;
let switchedOff: Awaited<ReturnType<typeof withLine>>;
let gone: Awaited<ReturnType<typeof withLine>>;
let twoScreens: Awaited<ReturnType<typeof withLine>>;
let behind: Awaited<ReturnType<typeof withLine>>;

const existing = FAKE_EXISTING.m3u + FAKE_EXISTING.mag + FAKE_EXISTING.enigma2;

describe("the sync lists each difference with both values", () => {
  it("expiry, switched off, max connections, missing on the panel, a panel line no client has — among the panel's 2,200 lines", async () => {
    expiry = await withLine("Ayanda Expiry");
    switchedOff = await withLine("Bheki Off");
    gone = await withLine("Chloe Gone");
    twoScreens = await withLine("Dineo Screens");
    behind = await withLine("Eben Behind");
    expiry.line.exp_date += 10 * DAY;
    behind.line.exp_date -= 12 * DAY;
    switchedOff.line.enabled = false;
    fake.lines.delete(gone.line.id);
    twoScreens.line.max_connections = 3;
    fake.lines.set("7777", { ...twoScreens.line, id: "7777", username: "stranger", contact: "Someone else" });
    await sync();

    const drift = await openDrift();
    const of = (clientId: string | null, kind: string) => drift.find((d) => d.client_id === clientId && d.kind === kind);
    const ours = await clientRow(expiry.clientId);
    expect(of(expiry.clientId, "expiry")).toMatchObject({
      ours: ours.subscription_end?.toISOString(),
      panel: new Date(expiry.line.exp_date * 1000).toISOString(),
      client_full_name: "Ayanda Expiry",
      can_push: false,
      can_accept: true,
    });
    expect(of(expiry.clientId, "expiry")?.description).toMatch(/^The panel's line ends on .*, our term on .*\.$/);
    expect(of(switchedOff.clientId, "enabled")).toMatchObject({ ours: "true", panel: "false", can_push: true, can_accept: true });
    expect(of(gone.clientId, "missing_on_panel")).toMatchObject({ ours: "true", panel: "false", panel_line_id: gone.line.id });
    expect(of(twoScreens.clientId, "max_connections")).toMatchObject({ ours: "1", panel: "3", can_push: false });
    // Every page of the panel was read: each of its own lines, and the stranger's, is one no client of ours has.
    expect(existing).toBeGreaterThanOrEqual(2_000);
    expect((await driftCounts()).missing_here).toBe(existing + 1);
    expect(await unlinkedRow("7777")).toMatchObject({ client_full_name: null, can_push: false, can_accept: true, push_cost: null });
    expect(drift.filter((d) => d.kind === "missing_here")).toEqual([]);
    // A push that buys a package says so first: which package, what it costs, where the panel's date lands.
    expect(of(behind.clientId, "expiry")).toMatchObject({
      can_push: true,
      push_cost: {
        credits: 1,
        words: expect.stringMatching(/^Extends the line by one 1 Month Official package: 1 credit\. The panel will end it on /),
      },
    });
    expect(of(gone.clientId, "missing_on_panel")?.push_cost).toEqual({
      credits: 1,
      words: "Makes a new line on 1 Month Official: 1 credit.",
    });
    expect(of(switchedOff.clientId, "enabled")?.push_cost).toBeNull();
    // The client page's words follow the same differences.
    expect((await clientRow(switchedOff.clientId)).line_sync_issue).toBe(
      "The panel has the line switched off, but the client should be watching.",
    );

    // A second sync keeps one open row per difference.
    await sync();
    const again = await openDrift();
    expect(again.map((d) => d.id).sort()).toEqual(drift.map((d) => d.id).sort());
  });
});

describe("fixing a difference: once, audited, through the lifecycle", () => {
  it("accept an expiry: our term ends when the panel's line does — once, however often it is sent", async () => {
    const [row] = (await openDrift()).filter((d) => d.client_id === expiry.clientId && d.kind === "expiry");
    const answers = await Promise.all([fix(row.id, "accept"), fix(row.id, "accept")]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect((await fix(row.id, "accept")).statusCode).toBe(200);
    expect(answers[0].json().data).toMatchObject({ status: "fixed", direction: "accept", can_accept: false });

    expect((await clientRow(expiry.clientId)).subscription_end?.getTime()).toBe(expiry.line.exp_date * 1000);
    const events = await t.app.db
      .select()
      .from(clientLifecycleEvents)
      .where(eq(clientLifecycleEvents.cause_key, `drift:${row.id}:accept`));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ cause: "panel-accepted", status_after: "active" });
    expect(events[0].reason).toContain("The panel's line ends on");
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, "panel_drift"), eq(auditLog.resource_id, row.id)));
    expect(audits.map((a) => a.action)).toEqual(["drift-accept"]);
    // The other side, once fixed: a 409 that says so. No panel work from an accept.
    const other = await fix(row.id, "push");
    expect(other.statusCode).toBe(409);
    expect(other.json().error.message).toContain("already fixed");
    expect(
      await t.app.db
        .select()
        .from(provisioningJobs)
        .where(like(provisioningJobs.cause_key, `drift:${row.id}%`)),
    ).toEqual([]);
  });

  it("push a switched-off line: one enable_line on the panel, however often it is sent", async () => {
    const [row] = (await openDrift()).filter((d) => d.client_id === switchedOff.clientId);
    const answers = await Promise.all([fix(row.id, "push"), fix(row.id, "push"), fix(row.id, "push")]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.json().panel_jobs).sort()).toEqual([0, 0, 1]);
    const calls = fake.callsOf("enable_line").length;
    await Promise.all([t.app.provisioning.drain(), t.app.provisioning.drain()]);
    expect(fake.callsOf("enable_line")).toHaveLength(calls + 1);
    expect(fake.lines.get(switchedOff.line.id)?.enabled).toBe(true);
    expect((await clientRow(switchedOff.clientId)).line_enabled).toBe(true);
    // The term is not touched by a push.
    expect(
      await t.app.db
        .select()
        .from(clientLifecycleEvents)
        .where(like(clientLifecycleEvents.cause_key, `drift:${row.id}%`)),
    ).toEqual([]);
  });

  it("push an expiry the panel is behind on: the line is extended by the client's package, once", async () => {
    const [row] = (await openDrift()).filter((d) => d.client_id === behind.clientId && d.kind === "expiry");
    const before = behind.line.exp_date;
    await Promise.all([fix(row.id, "push"), fix(row.id, "push")]);
    await t.app.provisioning.drain();
    const edits = fake.callsOf("edit_line").filter((c) => c.form.id === behind.line.id);
    expect(edits).toHaveLength(1);
    expect(edits[0].form.package).toBe("1");
    expect(behind.line.exp_date).toBeGreaterThan(before);
    // What the dialog said it would spend is what the ledger records the panel took.
    const ledger = await t.app.db
      .select()
      .from(panelCreditLedger)
      .where(like(panelCreditLedger.cause_key, `drift:${row.id}%`));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ action: "extend_line", panel_package_id: "1", cost: row.push_cost?.credits, outcome: "done" });
    expect(chargedBy(ledger[0])).toBe(row.push_cost?.credits);
  });

  it("push a line the panel lost: a new line is made (once) and its login goes to the client", async () => {
    const [row] = (await openDrift()).filter((d) => d.client_id === gone.clientId);
    await Promise.all([fix(row.id, "push"), fix(row.id, "push")]);
    await Promise.all([t.app.provisioning.drain(), t.app.provisioning.drain()]);
    const made = [...fake.lines.values()].filter((l) => l.contact.startsWith("Chloe Gone"));
    expect(made).toHaveLength(1);
    expect((await clientRow(gone.clientId)).panel_line_id).toBe(made[0].id);
  });

  it("what a side cannot do is a 409 in the owner's words; a bad direction a 400 on the field", async () => {
    const drift = await openDrift();
    const screens = drift.find((d) => d.kind === "max_connections");
    const stranger = await unlinkedRow("7777");
    if (!screens || !stranger) throw new Error("missing rows");
    const pushed = await fix(screens.id, "push");
    expect(pushed.statusCode).toBe(409);
    expect(pushed.json().error.message).toContain("changes a line's connections only with its package");
    const noClient = await fix(stranger.id, "push");
    expect(noClient.statusCode).toBe(409);
    expect(noClient.json().error.message).toContain("No client of ours has this line");
    const bad = await fix(screens.id, "sideways");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.direction).toBe("Choose push (ours to the panel) or accept (the panel's as ours)");
    expect((await t.app.db.select().from(panelDrift).where(eq(panelDrift.id, screens.id)))[0].status).toBe("open");
    expect(
      (await admin.call({ method: "POST", url: `/api/admin/panel/drift/${crypto.randomUUID()}/fix`, payload: { direction: "push" } }))
        .statusCode,
    ).toBe(404);

    // A line accepted as not ours stays accepted: the next sync does not open it again.
    expect((await fix(stranger.id, "accept")).statusCode).toBe(200);
    await sync();
    const after = await openDrift();
    expect(await unlinkedRow("7777")).toBeUndefined();
    expect((await driftCounts()).missing_here).toBe(existing);
    // What was fixed and now agrees is not open any more; what still differs is — including the
    // line pushed by a whole package, now ahead of our term by what the package added beyond it.
    expect(after.map((d) => [d.client_id, d.kind]).sort()).toEqual(
      [
        [twoScreens.clientId, "max_connections"],
        [behind.clientId, "expiry"],
      ].sort(),
    );
    const overshoot = after.find((d) => d.kind === "expiry");
    expect(new Date(overshoot?.panel ?? 0).getTime()).toBeGreaterThan(new Date(overshoot?.ours ?? 0).getTime());
  });
});

describe("bouquets per package (issue 32 item 3)", () => {
  it("the owner picks some of the panel package's bouquets; lines are made and extended with bouquets_selected[]", async () => {
    const bad = await admin.call({ method: "PUT", url: "/api/admin/panel/mapping", payload: { bouquets: { [monthId]: ["1", "9"] } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields[`bouquets.${monthId}`]).toBe('Choose bouquets of the panel package "1 Month Official" only.');
    const view = (await admin.call({ method: "GET", url: "/api/admin/panel" })).json();
    expect(view.packages.find((p: { id: string }) => p.id === "1").bouquets).toEqual(["1", "2", "3"]);
    expect(view.bouquets).toEqual({});

    const saved = await admin.call({ method: "PUT", url: "/api/admin/panel/mapping", payload: { bouquets: { [monthId]: ["1", "3"] } } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().bouquets).toEqual({ [monthId]: ["1", "3"] });

    const creates = fake.callsOf("create_line").length;
    const { clientId, line } = await withLine("Fezile Bouquets");
    expect(
      fake
        .callsOf("create_line")
        .slice(creates)
        .map((c) => c.form["bouquets_selected[]"]),
    ).toEqual(["1,3"]);
    expect(line.bouquets).toEqual(["1", "3"]);
    await admin.call({ method: "POST", url: "/api/admin/payments", payload: { client_id: clientId, package_id: monthId, amount: 250 } });
    await t.app.provisioning.drain();
    const edit = fake.callsOf("edit_line").at(-1);
    expect(edit?.form).toEqual({ id: line.id, package: "1", "bouquets_selected[]": "1,3" });
  });
});

describe.runIf(onPostgres())(
  "PostgreSQL only (PGlite is one connection: nothing races there): a fix sent to two processes at the same moment",
  () => {
    it("push a switched-off line from two processes, then workers on both draining together: one job, one enable_line", async () => {
      const other = await secondProcess(t);
      try {
        const otherAdmin = await signInAdmin(other.app);
        const off = await withLine("Farai Race");
        off.line.enabled = false;
        await sync();
        const [row] = (await openDrift()).filter((d) => d.client_id === off.clientId && d.kind === "enabled");
        const url = t.database.url as string;
        const fixBy = (who: SignedIn) =>
          who.call({ method: "POST", url: `/api/admin/panel/drift/${row.id}/fix`, payload: { direction: "push" } });
        // each fix waits behind the lock on panel_drift, then both go
        const answers = await startTogether(url, "LOCK TABLE panel_drift IN EXCLUSIVE MODE", 2, () =>
          Promise.all([fixBy(admin), fixBy(otherAdmin)]),
        );
        expect(
          answers.map((a) => a.statusCode),
          answers.map((a) => a.body).join(" "),
        ).toEqual([200, 200]);
        expect(answers.map((a) => a.json().panel_jobs).sort()).toEqual([0, 1]);
        const calls = fake.callsOf("enable_line").length;
        await startTogether(url, "LOCK TABLE provisioning_jobs IN EXCLUSIVE MODE", 2, () =>
          Promise.all([t.app.provisioning.drain(), other.app.provisioning.drain()]),
        );
        expect(fake.callsOf("enable_line")).toHaveLength(calls + 1);
        expect(fake.lines.get(off.line.id)?.enabled).toBe(true);
        expect((await clientRow(off.clientId)).line_enabled).toBe(true);
        expect(
          await t.app.db
            .select()
            .from(provisioningJobs)
            .where(like(provisioningJobs.cause_key, `drift:${row.id}%`)),
        ).toHaveLength(1);
      } finally {
        await other.close();
      }
    });
  },
);
