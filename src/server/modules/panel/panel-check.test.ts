// A failed check is a failure (issue 42 item 4), against the fake reseller panel at a real
// reseller's size: "Check now" on a panel whose answer is cut off answers 502 in the owner's
// words, records the check as failed (the panel page says so, never "agree") and changes
// nothing; the nightly sync lets its claim go so the next hour tries again, and the owner is
// alerted once after three failures in a row; a check that works again says so.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_EXISTING, type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { clients, outbox, packages, panelDrift, siteSettings } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";
import { OWNER_ALERT_KIND } from "@/shared/owner-alerts";
import { CHECK_FAILURES_BEFORE_ALERT, runPanelSync } from "./sync";

let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
let clientId: string;
const existing = FAKE_EXISTING.m3u + FAKE_EXISTING.mag + FAKE_EXISTING.enigma2;
/** a page of get_lines that stops mid-row, as a proxy that cuts an answer short sends it */
const CUT_OFF = '{"status":"STATUS_SUCCESS","recordsTotal":2000,"data":[{"id":"100001","username":"thabo1","pass';

beforeAll(async () => {
  fake = await startFakeXtreamPanel();
  t = await createTestApp(
    { PUBLIC_URL: "http://localhost:8080", PANEL_API_URL: fake.url, PANEL_API_KEY: fake.apiKey, PANEL_TIMEOUT_MS: 1_000 },
    { seed: true },
  );
  admin = await signInAdmin(t.app);
  const [{ id: monthId }] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "Month to Month"));
  await admin.call({ method: "PUT", url: "/api/admin/panel/mapping", payload: { packages: { [monthId]: "1" } } });
  const created = await admin.call({
    method: "POST",
    url: "/api/admin/clients",
    payload: { full_name: "Lindiwe Check", whatsapp: "082 777 4001" },
  });
  clientId = created.json().client.id;
  await admin.call({ method: "POST", url: "/api/admin/payments", payload: { client_id: clientId, package_id: monthId, amount: 250 } });
  await t.app.provisioning.drain();
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const panelView = async () => (await admin.call({ method: "GET", url: "/api/admin/panel" })).json();
const driftRows = () => t.app.db.select({ id: panelDrift.id, status: panelDrift.status, seen_at: panelDrift.seen_at }).from(panelDrift);
const failureAlerts = () =>
  t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.kind, OWNER_ALERT_KIND), eq(outbox.subject, "The panel could not be read")));

describe("Check now", () => {
  it("a check that works says how many lines it read, and the panel page shows it", async () => {
    const checked = await admin.call({ method: "POST", url: "/api/admin/panel/sync" });
    expect(checked.statusCode).toBe(200);
    expect(checked.json().data).toMatchObject({ checked: 1, flagged: 0, lines_read: existing + 1 });
    expect((await panelView()).last_check).toMatchObject({ ok: true, error: "", lines_read: existing + 1, checked: 1, failures_in_row: 0 });
  });

  it("a cut-off answer: 502 in the owner's words, the check recorded as failed, nothing changed", async () => {
    const line = fake.made()[0];
    line.enabled = false; // a difference the failed check must not find, nor clear
    const before = await driftRows();
    const [client] = await t.app.db.select().from(clients).where(eq(clients.id, clientId));

    fake.failNext(CUT_OFF);
    const failed = await admin.call({ method: "POST", url: "/api/admin/panel/sync" });
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error.message).toBe(
      `The check failed: The panel's answer to get_lines (HTTP 200, ${CUT_OFF.length} bytes) is not JSON: it is cut off or broken.`,
    );
    const view = await panelView();
    expect(view.last_check).toMatchObject({
      ok: false,
      error: `The panel's answer to get_lines (HTTP 200, ${CUT_OFF.length} bytes) is not JSON: it is cut off or broken.`,
      failures_in_row: 1,
      lines_read: 0,
    });
    // Nothing of ours moved: the drift rows as they were, the client's line as we last knew it.
    expect(await driftRows()).toEqual(before);
    const [after] = await t.app.db.select().from(clients).where(eq(clients.id, clientId));
    expect(after.line_enabled).toBe(client.line_enabled);
    expect(after.line_sync_issue).toBe(client.line_sync_issue);
    line.enabled = true;
  });
});

describe("the nightly sync", () => {
  it("a failed read lets the night's claim go; the owner is alerted once after three failures in a row; a check that works resets it", async () => {
    const claim = async () =>
      (await t.app.db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, "private_panel_last_sync")))[0]
        ?.value ?? "";
    await t.app.db.delete(siteSettings).where(eq(siteSettings.key, "private_panel_last_check"));
    for (let failure = 1; failure <= CHECK_FAILURES_BEFORE_ALERT + 1; failure++) {
      fake.failNext("<html>502 Bad Gateway</html>");
      await expect(runPanelSync(t.app)).rejects.toMatchObject({ status: "BAD_ANSWER" });
      // let go: the next hourly run claims it again instead of waiting for tomorrow night
      expect(await claim()).toBe("");
      expect((await panelView()).last_check).toMatchObject({ ok: false, failures_in_row: failure });
      expect(await failureAlerts()).toHaveLength(failure < CHECK_FAILURES_BEFORE_ALERT ? 0 : 1);
    }
    const [alert] = await failureAlerts();
    expect(alert.body).toContain(`The last ${CHECK_FAILURES_BEFORE_ALERT} checks of your IPTV panel failed.`);
    expect(alert.body).toContain("http://localhost:8080/admin/panel");

    const worked = await runPanelSync(t.app);
    expect(worked).toMatchObject({ lines_read: existing + 1 });
    expect(await claim()).not.toBe("");
    expect((await panelView()).last_check).toMatchObject({ ok: true, failures_in_row: 0 });
    // once a night: a second run the same night does nothing
    expect(await runPanelSync(t.app)).toBeNull();
  });
});
