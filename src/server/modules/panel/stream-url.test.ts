// Manual mode that works (issue 28, item 4): the stream server URL is the owner's setting
// (PANEL_STREAM_URL its default) and every subscriber link is built on it, absolute, in every
// mode. A manual task asks for it when none is set and takes the line's end date; the customer's
// message and portal then carry absolute M3U/EPG links (and the portal a QR of them). Bad input
// is a 400 on the field with nothing written.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, clients, outbox, packages, provisioningJobs, siteSettings } from "@/server/db/schema";
import { withSecret } from "@/server/lib/outbox";
import { open } from "@/server/lib/secret-box";
import { clientSession, type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, type TestApp } from "@/server/testing";
import { PANEL_STREAM_URL_NEEDED } from "@/shared/business-schemas";
import { CACHE_MINUTES_MESSAGE, PANEL_SETTINGS, STREAM_URL_MESSAGE } from "@/shared/panel-settings";

const PUBLIC_URL = "http://localhost:8080";
const STREAM = "http://tv.example.net:8080";

let t: TestApp;
let owner: SignedIn;
let threeMonths: string;

beforeAll(async () => {
  // manual mode, and no PANEL_STREAM_URL on the server: the setting is all there is
  t = await createTestApp({ PUBLIC_URL, PANEL_MODE: "manual", PANEL_STREAM_URL: undefined }, { seed: true });
  owner = await signInAdmin(t.app);
  [{ id: threeMonths }] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "3 Months"));
});
afterAll(async () => {
  await t?.close();
});

const panelSettingRows = () =>
  t.app.db
    .select()
    .from(siteSettings)
    .where(eq(siteSettings.key, PANEL_SETTINGS.streamUrl))
    .then((rows) => rows.concat());

/** A paid client in manual mode: their create_line waits as the owner's task. */
async function paidClientWithTask(name: string, whatsapp: string) {
  const created = await owner.call({ method: "POST", url: "/api/admin/clients", payload: { full_name: name, whatsapp } });
  expect(created.statusCode, created.body).toBe(201);
  const clientId = created.json().client.id as string;
  const paid = await owner.call({
    method: "POST",
    url: "/api/admin/payments",
    payload: { client_id: clientId, package_id: threeMonths, amount: 1450 },
  });
  expect(paid.statusCode, paid.body).toBe(201);
  await t.app.provisioning.drain();
  const [job] = await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.client_id, clientId));
  expect(job.status).toBe("task");
  return { clientId, job };
}

const credentialsOf = (clientId: string) =>
  t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "credentials")));

describe("the stream URL setting", () => {
  it("is empty in manual mode without PANEL_STREAM_URL, and the panel view says so", async () => {
    const view = await owner.call({ method: "GET", url: "/api/admin/panel" });
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({ mode: "manual", stream_url: "", stream_url_source: "none", cache_minutes: 5 });
  });

  it.each([
    ["ftp://tv.example.net", "not http(s)"],
    ["tv.example.net:8080", "no scheme"],
    ["http://tv.example.net/live", "a path"],
    ["http://tv.example.net:8080?x=1", "a query"],
    ["http://", "no host"],
    ["http://tv example.net", "a space"],
    ["http://tv.example.net:99999", "a port out of range"],
    ["http://user:pw@tv.example.net", "a login in it"],
  ])("refuses %s (%s): 400 on stream_url, nothing saved", async (value) => {
    const res = await owner.call({ method: "PUT", url: "/api/admin/panel/settings", payload: { stream_url: value } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.fields).toEqual({ stream_url: STREAM_URL_MESSAGE });
    expect(await panelSettingRows()).toEqual([]);
  });

  it.each([0, 61, 2.5, "five", -1])("refuses a cache time of %s minutes: 400 on cache_minutes, nothing saved", async (value) => {
    const res = await owner.call({
      method: "PUT",
      url: "/api/admin/panel/settings",
      payload: { stream_url: STREAM, cache_minutes: value },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.fields).toEqual({ cache_minutes: CACHE_MINUTES_MESSAGE });
    // the good field in the same request is not written either
    expect(await panelSettingRows()).toEqual([]);
  });

  it("the general settings write refuses the same values (400 on value)", async () => {
    for (const [key, value, message] of [
      [PANEL_SETTINGS.streamUrl, "http://tv.example.net/path", STREAM_URL_MESSAGE],
      [PANEL_SETTINGS.cacheMinutes, "90", CACHE_MINUTES_MESSAGE],
    ]) {
      const res = await owner.call({ method: "POST", url: "/api/admin/settings", payload: { key, value } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.fields).toEqual({ value: message });
    }
    expect(await panelSettingRows()).toEqual([]);
  });
});

describe("a manual task makes a line customers can use", () => {
  it("without a stream URL, completing a new line is a 400 on stream_url and nothing is half-written", async () => {
    const { clientId, job } = await paidClientWithTask("Thandi Nourl", "082 555 3001");
    const view = (await owner.call({ method: "GET", url: "/api/admin/provisioning?status=task" })).json();
    expect(view.data.find((j: { id: string }) => j.id === job.id)).toMatchObject({ needs_login: true });

    const res = await owner.call({
      method: "POST",
      url: `/api/admin/provisioning/${job.id}/complete`,
      payload: { username: "thandi1", password: "line-pass-1" },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.fields).toEqual({ stream_url: PANEL_STREAM_URL_NEEDED });
    const [after] = await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.id, job.id));
    expect(after.status).toBe("task");
    const [client] = await t.app.db.select().from(clients).where(eq(clients.id, clientId));
    expect(client).toMatchObject({ line_username: "", panel_line_id: null });
    expect(await credentialsOf(clientId)).toEqual([]);
  });

  it("an end date in the past, or not a date, is a 400 on expires_on; a bad stream URL a 400 on stream_url", async () => {
    const { clientId, job } = await paidClientWithTask("Sipho Baddate", "082 555 3002");
    for (const [payload, field] of [
      [{ expires_on: "2020-01-01" }, "expires_on"],
      [{ expires_on: "2030-02-30" }, "expires_on"],
      [{ expires_on: "next week" }, "expires_on"],
      [{ stream_url: "tv.example.net" }, "stream_url"],
    ] as const) {
      const res = await owner.call({
        method: "POST",
        url: `/api/admin/provisioning/${job.id}/complete`,
        payload: { username: "sipho1", password: "line-pass-2", stream_url: STREAM, ...payload },
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().error.fields)).toEqual([field]);
    }
    const [after] = await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.id, job.id));
    expect(after.status).toBe("task");
    expect(await credentialsOf(clientId)).toEqual([]);
    expect(await panelSettingRows()).toEqual([]);
  });

  it("with the stream URL given on the task: saved as the setting, the message and the portal carry absolute links, the end date is the panel's", async () => {
    const { clientId, job } = await paidClientWithTask("Lerato Manual", "082 555 3003");
    const done = await owner.call({
      method: "POST",
      url: `/api/admin/provisioning/${job.id}/complete`,
      payload: { username: "lerato1", password: "p@ss word", expires_on: "2099-03-31", stream_url: `${STREAM}/` },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.status).toBe("done");

    // the setting, read back; the panel view now uses it
    const [row] = await panelSettingRows();
    expect(row.value).toBe(STREAM);
    const view = (await owner.call({ method: "GET", url: "/api/admin/panel" })).json();
    expect(view).toMatchObject({ stream_url: STREAM, stream_url_source: "setting", stream_url_setting: STREAM });

    const [client] = await t.app.db.select().from(clients).where(eq(clients.id, clientId));
    expect(client.line_portal_url).toBe(STREAM);
    // 23:59:59 on 31 Mar 2099 in South Africa
    expect(client.line_expires_at?.toISOString()).toBe("2099-03-31T21:59:59.000Z");

    const messages = await credentialsOf(clientId);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages) {
      const text = withSecret(message.body, await open(t.app.db, message.secret_enc as string));
      expect(text).toContain(STREAM);
      expect(text).toContain(`${STREAM}/get.php?username=lerato1&password=p%40ss%20word&type=m3u_plus&output=ts`);
      expect(text).toContain(`${STREAM}/xmltv.php?username=lerato1&password=p%40ss%20word`);
      expect(text).not.toMatch(/(^|\s)\/get\.php/m);
      expect(text).toContain("31 Mar 2099");
    }

    const session = await clientSession(t.app, clientId);
    const me = await t.app.inject({ method: "GET", url: "/api/client/me", cookies: session.cookie });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.line).toMatchObject({
      username: "lerato1",
      server_url: STREAM,
      m3u_url: `${STREAM}/get.php?username=lerato1&password=p%40ss%20word&type=m3u_plus&output=ts`,
      epg_url: `${STREAM}/xmltv.php?username=lerato1&password=p%40ss%20word`,
    });
  });

  it("once set, the next task needs no URL; a line typed in by hand without one gets links on the setting in the portal", async () => {
    const { clientId, job } = await paidClientWithTask("Zanele Second", "082 555 3004");
    const done = await owner.call({
      method: "POST",
      url: `/api/admin/provisioning/${job.id}/complete`,
      payload: { username: "zanele1", password: "zpass" },
    });
    expect(done.statusCode, done.body).toBe(200);
    const [client] = await t.app.db.select().from(clients).where(eq(clients.id, clientId));
    expect(client.line_portal_url).toBe(STREAM);

    // an older line with no server of its own
    await t.app.db.update(clients).set({ line_portal_url: "" }).where(eq(clients.id, clientId));
    const session = await clientSession(t.app, clientId);
    const me = await t.app.inject({ method: "GET", url: "/api/client/me", cookies: session.cookie });
    expect(me.json().data.line.m3u_url).toBe(`${STREAM}/get.php?username=zanele1&password=zpass&type=m3u_plus&output=ts`);
  });

  it("the owner changes the URL on the panel page: it is read back, audited, and new lines use it", async () => {
    const next = "https://live.example.org:2096";
    const res = await owner.call({ method: "PUT", url: "/api/admin/panel/settings", payload: { stream_url: next, cache_minutes: 10 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ stream_url: next, stream_url_source: "setting", cache_minutes: 10 });
    const again = (await owner.call({ method: "GET", url: "/api/admin/panel" })).json();
    expect(again).toMatchObject({ stream_url: next, cache_minutes: 10 });
    const audits = await t.app.db.select().from(auditLog).where(eq(auditLog.resource, "panel_settings"));
    expect(audits.some((a) => JSON.stringify(a.after).includes(next))).toBe(true);

    const { clientId, job } = await paidClientWithTask("Ayanda Third", "082 555 3005");
    await owner.call({
      method: "POST",
      url: `/api/admin/provisioning/${job.id}/complete`,
      payload: { username: "ayanda1", password: "apass" },
    });
    const [message] = await credentialsOf(clientId);
    expect(withSecret(message.body, await open(t.app.db, message.secret_enc as string))).toContain(
      `${next}/get.php?username=ayanda1&password=apass`,
    );
    // clearing it falls back to PANEL_STREAM_URL (unset here: none)
    const cleared = await owner.call({ method: "PUT", url: "/api/admin/panel/settings", payload: { stream_url: "" } });
    expect(cleared.json()).toMatchObject({ stream_url: "", stream_url_source: "none", cache_minutes: 10 });
  });
});

describe("PANEL_STREAM_URL is the setting's default", () => {
  let other: TestApp;
  afterAll(async () => {
    await other?.close();
  });

  it("an app with PANEL_STREAM_URL and no setting uses it; a setting overrides it", async () => {
    other = await createTestApp({ PUBLIC_URL, PANEL_MODE: "manual", PANEL_STREAM_URL: "http://env.example.net:25461" }, { seed: false });
    const admin = await signInAdmin(other.app);
    expect((await admin.call({ method: "GET", url: "/api/admin/panel" })).json()).toMatchObject({
      stream_url: "http://env.example.net:25461",
      stream_url_source: "environment",
      stream_url_default: "http://env.example.net:25461",
    });
    const set = await admin.call({ method: "PUT", url: "/api/admin/panel/settings", payload: { stream_url: "http://own.example.net" } });
    expect(set.json()).toMatchObject({ stream_url: "http://own.example.net", stream_url_source: "setting" });
  });
});
