// MAG and Enigma2 device lines (issue 32 item 1), against the fake reseller panel: a payment for
// a MAG box makes one create_mag with the box's MAC (however often the callback comes), the
// message points the box at the portal URL (no M3U link), a renewal is edit_mag and a suspension
// disable_mag on the device's id; a malformed MAC is a 400 in the customer's words with nothing
// written; a MAC already on the panel is a failed job for the owner, never a second create.
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAKE_EXISTING, type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import {
  auditLog,
  capturedPayments,
  clients,
  leads,
  lineMacChanges,
  outbox,
  packages,
  panelDrift,
  provisioningJobs,
} from "@/server/db/schema";
import { clientSession, type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { type OtherProcess, secondProcess, startTogether } from "@/server/test-support/race";
import { deliverSandboxAgain, type PaidPayment, payOnSandbox } from "@/server/test-support/sandbox-payments";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { MAC_MESSAGE, macWarning } from "@/shared/device-lines";
import { runPanelSync } from "./sync";

const PUBLIC_URL = "http://localhost:8080";
const SANDBOX_SECRET = "device-test-sandbox-secret";
const STREAM = "http://stream.example.net:8080";

let t: TestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
let monthId: string;
let n = 0;

beforeAll(async () => {
  fake = await startFakeXtreamPanel();
  t = await createTestApp(
    { PUBLIC_URL, SANDBOX_SECRET, PANEL_API_URL: fake.url, PANEL_API_KEY: fake.apiKey, PANEL_STREAM_URL: STREAM, PANEL_TIMEOUT_MS: 1_000 },
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

const ip = () => `10.9.0.${++n}`;
const order = (name: string, device: Record<string, unknown>) => ({
  name,
  whatsapp: `082 888 ${String(1000 + n)}`,
  immediateStartConsent: true,
  packageId: monthId,
  ...device,
});

const payForBox = (name: string, device: Record<string, unknown>) => payOnSandbox(t.app, order(name, device), ip());

const deliverAgain = (payment: PaidPayment) => deliverSandboxAgain(t.app, payment, SANDBOX_SECRET);

const clientRow = async (id: string) => (await t.app.db.select().from(clients).where(eq(clients.id, id)))[0];

describe("a MAG box's line", () => {
  let clientId: string;
  let deviceId: string;

  it("a payment makes one create_mag with the box's MAC, under replays and two drains together (taking turns on PGlite's one connection); the message gives the portal URL", async () => {
    const payment = await payForBox("Mandla Mag", { lineType: "mag", mac: " 00:1a:79:12:34:56 " });
    clientId = payment.client_id as string;
    expect(payment).toMatchObject({ line_type: "mag", line_mac: "00:1A:79:12:34:56" });
    expect((await deliverAgain(payment)).statusCode).toBe(200);
    await Promise.all([t.app.provisioning.drain(), t.app.provisioning.drain()]);
    expect((await deliverAgain(payment)).statusCode).toBe(200);
    await t.app.provisioning.drain();

    expect(fake.callsOf("create_line")).toEqual([]);
    const creates = fake.callsOf("create_mag");
    expect(creates).toHaveLength(1);
    expect(creates[0]).toMatchObject({ method: "POST", form: { package: "1", trial: "0", mac: "00:1A:79:12:34:56" } });
    const box = [...fake.lines.values()].find((l) => l.mac === "00:1A:79:12:34:56");
    if (!box) throw new Error("no box line");
    deviceId = box.device_id;
    expect(await clientRow(clientId)).toMatchObject({
      line_type: "mag",
      line_mac: "00:1A:79:12:34:56",
      panel_line_id: deviceId,
      line_portal_url: `${STREAM}/c/`,
      line_enabled: true,
    });
    const [message] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, clientId), eq(outbox.kind, "credentials")));
    expect(message.channel).toBe("whatsapp");
    expect(message.body).toContain("Hi Mandla,");
    expect(message.body).toContain("your MAG box with MAC address 00:1A:79:12:34:56");
    expect(message.body).toContain(`Set Portal 1 URL to ${STREAM}/c/`);
    expect(message.body).not.toContain("get.php");
    expect(message.body).not.toMatch(/e-?mail/i);
  });

  it("a renewal is one edit_mag and a suspension one disable_mag, on the device's id", async () => {
    const paid = await admin.call({
      method: "POST",
      url: "/api/admin/payments",
      payload: { client_id: clientId, package_id: monthId, amount: 250 },
    });
    expect(paid.statusCode).toBe(201);
    await t.app.provisioning.drain();
    expect(fake.callsOf("edit_mag").map((c) => c.form)).toEqual([{ id: deviceId, package: "1" }]);
    expect(fake.callsOf("edit_line")).toEqual([]);
    await admin.call({ method: "POST", url: `/api/admin/clients/${clientId}/suspend` });
    await t.app.provisioning.drain();
    expect(fake.callsOf("disable_mag").map((c) => c.form)).toEqual([{ id: deviceId }]);
    expect([...fake.lines.values()].find((l) => l.device_id === deviceId)?.enabled).toBe(false);
  });

  it("the sync finds the box's line among the panel's MAG lines (no 'missing' difference)", async () => {
    await runPanelSync(t.app, { force: true });
    const rows = await t.app.db.select().from(panelDrift).where(eq(panelDrift.client_id, clientId));
    expect(rows.filter((r) => r.kind === "missing_on_panel")).toEqual([]);
    // Among the panel's 2,200 lines, each of its own is one no client has; our box is not among them.
    const unlinked = await t.app.db.select().from(panelDrift).where(eq(panelDrift.kind, "missing_here"));
    expect(unlinked.map((r) => r.panel_line_id)).not.toContain(`mag:${deviceId}`);
    expect(unlinked).toHaveLength(FAKE_EXISTING.m3u + FAKE_EXISTING.mag + FAKE_EXISTING.enigma2);
  });

  it("a create_mag whose answer was lost: the next attempt finds the box by its MAC (with our mark) and adopts it — one line", async () => {
    fake.loseAnswer("create_mag", { when: "after", as: "5xx" });
    const before = fake.callsOf("create_mag").length;
    const payment = await payForBox("Lost Box", { lineType: "mag", mac: "00:1A:79:AB:CD:EF" });
    await t.app.provisioning.drain();
    const [job] = await t.app.db
      .select()
      .from(provisioningJobs)
      .where(eq(provisioningJobs.client_id, payment.client_id as string));
    expect(job).toMatchObject({ status: "pending", error_status: "HTTP_5XX" });
    await t.app.db.update(provisioningJobs).set({ next_attempt_at: new Date() }).where(eq(provisioningJobs.id, job.id));
    await Promise.all([t.app.provisioning.drain(), t.app.provisioning.drain()]);
    expect(fake.callsOf("create_mag")).toHaveLength(before + 1);
    const boxes = [...fake.lines.values()].filter((l) => l.mac === "00:1A:79:AB:CD:EF");
    expect(boxes).toHaveLength(1);
    expect(await clientRow(payment.client_id as string)).toMatchObject({
      panel_line_id: boxes[0].device_id,
      line_mac: "00:1A:79:AB:CD:EF",
    });
    expect((await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.id, job.id)))[0].status).toBe("done");
  });

  it("an Enigma2 receiver is made with create_enigma and its MAC", async () => {
    await payForBox("Elsa Enigma", { lineType: "enigma2", mac: "AA-BB-CC-DD-EE-01" });
    await t.app.provisioning.drain();
    expect(fake.callsOf("create_enigma").map((c) => c.form.mac)).toEqual(["AA:BB:CC:DD:EE:01"]);
  });
});

describe("bad MACs", () => {
  it("a malformed MAC, or a box without one, is a 400 on the field in the customer's words; nothing is written", async () => {
    const [{ before }] = await t.app.db.select({ before: count() }).from(capturedPayments);
    for (const device of [{ lineType: "mag", mac: "00:1A:79:12:34" }, { lineType: "mag", mac: "not a mac" }, { lineType: "enigma2" }]) {
      const refused = await t.app.inject({
        method: "POST",
        url: "/api/payments/paylink",
        payload: order("Bad Mac", device),
        remoteAddress: ip(),
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields.mac).toBe("Enter the MAC address as shown on the device (00:1A:79:xx:xx:xx)");
    }
    expect(MAC_MESSAGE).toBe("Enter the MAC address as shown on the device (00:1A:79:xx:xx:xx)");
    const [{ after }] = await t.app.db.select({ after: count() }).from(capturedPayments);
    expect(after).toBe(before);
  });

  it("a MAG MAC outside 00:1A:79 is a warning, not a refusal", async () => {
    expect(macWarning("mag", "AA:BB:CC:DD:EE:FF")).toContain("start with 00:1A:79");
    expect(macWarning("mag", "00:1a:79:00:00:01")).toBe("");
    expect(macWarning("enigma2", "AA:BB:CC:DD:EE:FF")).toBe("");
  });

  it("a MAC already on the panel (not ours): a failed job with the panel's words for the owner, no create_mag", async () => {
    fake.lines.set("9001", {
      ...fake.made()[0],
      id: "9001",
      device_id: "9901",
      mac: "00:1A:79:99:99:99",
      reseller_notes: "someone else's box",
    });
    const before = fake.callsOf("create_mag").length;
    const payment = await payForBox("Taken Mac", { lineType: "mag", mac: "00:1A:79:99:99:99" });
    await t.app.provisioning.drain();
    expect(fake.callsOf("create_mag")).toHaveLength(before);
    const [job] = await t.app.db
      .select()
      .from(provisioningJobs)
      .where(eq(provisioningJobs.client_id, payment.client_id as string));
    expect(job).toMatchObject({ status: "failed", error_status: "STATUS_EXISTS_MAC" });
    expect(job.last_error).toContain("That MAC address already has a line on the panel");
    const notices = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `panel-failed:${job.id}`));
    expect(notices).toHaveLength(1);
    // The customer is asked to check the MAC, on their channel, once.
    const asked = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `mac-taken:${job.id}`));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ channel: "whatsapp", client_id: payment.client_id, kind: "mac-taken" });
    expect(asked[0].body).toContain("The MAC address you gave for your MAG box, 00:1A:79:99:99:99, is already registered on our server");
    expect(asked[0].body).not.toMatch(/e-?mail/i);
  });
});

describe("changing the box's MAC from the portal", () => {
  let clientId: string;
  let cookie: Record<string, string>;
  const change = (mac: unknown, key?: string) =>
    t.app.inject({
      method: "POST",
      url: "/api/client/line/mac",
      payload: { mac },
      cookies: cookie,
      headers: { origin: PUBLIC_URL, ...(key ? { "idempotency-key": key } : {}) },
    });

  beforeAll(async () => {
    const payment = await payForBox("Mpho Moves", { lineType: "mag", mac: "00:1A:79:00:00:01" });
    clientId = payment.client_id as string;
    await t.app.provisioning.drain();
    ({ cookie } = await clientSession(t.app, clientId));
  });

  it("once per request, under replays and two sent together (taking turns on PGlite's one connection): one edit_mag with the new MAC, the old one freed, audited", async () => {
    const deviceId = (await clientRow(clientId)).panel_line_id as string;
    const answers = await Promise.all([change("00:1a:79:00:00:02", "k-1"), change("00:1a:79:00:00:02", "k-1")]);
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202]);
    expect(answers[0].json().data.id).toBe(answers[1].json().data.id);
    expect((await change("00:1a:79:00:00:02", "k-1")).json().data).toMatchObject({
      old_mac: "00:1A:79:00:00:01",
      new_mac: "00:1A:79:00:00:02",
    });
    await Promise.all([t.app.provisioning.drain(), t.app.provisioning.drain()]);

    const edits = fake.callsOf("edit_mag").filter((c) => c.form.mac);
    expect(edits.map((c) => c.form)).toEqual([{ id: deviceId, mac: "00:1A:79:00:00:02" }]);
    const box = [...fake.lines.values()].find((l) => l.device_id === deviceId);
    expect(box?.mac).toBe("00:1A:79:00:00:02");
    expect([...fake.lines.values()].some((l) => l.mac === "00:1A:79:00:00:01")).toBe(false);
    expect((await clientRow(clientId)).line_mac).toBe("00:1A:79:00:00:02");
    expect(await t.app.db.select().from(lineMacChanges).where(eq(lineMacChanges.client_id, clientId))).toHaveLength(1);
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "mac-change"), eq(auditLog.resource_id, clientId)));
    expect(audits).toHaveLength(1);
    expect(audits[0].after).toMatchObject({ line_mac: "00:1A:79:00:00:02" });
  });

  it("within the cooldown: 409 saying when it is allowed (Retry-After); nothing queued", async () => {
    const early = await change("00:1A:79:00:00:03", "k-2");
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toMatch(
      /^You changed your box's MAC address a short while ago\. You can change it again after .* \(SAST\)\.$/,
    );
    expect(Number(early.headers["retry-after"])).toBeGreaterThan(23 * 3600);
    expect(await t.app.db.select().from(lineMacChanges).where(eq(lineMacChanges.client_id, clientId))).toHaveLength(1);
  });

  it("the monthly limit (a setting) holds once the cooldown is off", async () => {
    await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: "mac_change_cooldown_hours", value: "0" } });
    await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: "mac_change_monthly_limit", value: "2" } });
    expect((await change("00:1A:79:00:00:03", "k-3")).statusCode).toBe(202);
    const third = await change("00:1A:79:00:00:04", "k-4");
    expect(third.statusCode).toBe(409);
    expect(third.json().error.message).toContain("You have changed your box's MAC address 2 times in 30 days.");
  });

  it("resets the ISP lock once per request (edit_mag with isp_clear), audited", async () => {
    const reset = (key: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/client/line/isp-reset",
        cookies: cookie,
        headers: { origin: PUBLIC_URL, "idempotency-key": key },
      });
    const answers = await Promise.all([reset("isp-1"), reset("isp-1"), reset("isp-1")]);
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202]);
    await Promise.all([t.app.provisioning.drain(), t.app.provisioning.drain()]);
    const deviceId = (await clientRow(clientId)).panel_line_id;
    expect(
      fake
        .callsOf("edit_mag")
        .filter((c) => c.form.isp_clear)
        .map((c) => c.form),
    ).toEqual([{ id: deviceId, isp_clear: "1" }]);
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "isp-reset"), eq(auditLog.resource_id, clientId)));
    expect(audits).toHaveLength(1);
  });

  it("a malformed MAC is a 400 in the customer's words; signed out is a 401", async () => {
    const bad = await change("00:1A:79", "k-5");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.mac).toBe(MAC_MESSAGE);
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/api/client/line/mac",
      payload: { mac: "x" },
      headers: { origin: PUBLIC_URL },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("what the customer sees of a box's line (the portal, the order form)", () => {
  const me = async (cookie: Record<string, string>) => {
    const answer = await t.app.inject({ method: "GET", url: "/api/client/me", cookies: cookie });
    expect(answer.statusCode).toBe(200);
    return answer.json().data;
  };

  it("the portal's profile of a MAG line: its type, MAC and portal URL, no M3U link; a change under way shows until the panel has it", async () => {
    const payment = await payForBox("Portia Portal", { lineType: "mag", mac: "00:1A:79:50:50:01" });
    await t.app.provisioning.drain();
    const clientId = payment.client_id as string;
    const { cookie } = await clientSession(t.app, clientId);
    const before = await me(cookie);
    expect(before.line).toMatchObject({
      type: "mag",
      mac: "00:1A:79:50:50:01",
      portal_url: `${STREAM}/c/`,
      mac_change: null,
      self_service: true,
    });

    const asked = await t.app.inject({
      method: "POST",
      url: "/api/client/line/mac",
      payload: { mac: "00:1a:79:50:50:02" },
      cookies: cookie,
      headers: { origin: PUBLIC_URL, "idempotency-key": "portal-1" },
    });
    expect(asked.statusCode).toBe(202);
    expect((await me(cookie)).line).toMatchObject({ mac: "00:1A:79:50:50:01", mac_change: { new_mac: "00:1A:79:50:50:02" } });
    await t.app.provisioning.drain();
    expect((await me(cookie)).line).toMatchObject({ mac: "00:1A:79:50:50:02", mac_change: null });
  });

  it("a MAC change the panel refuses (the new MAC is another box's) stops showing as under way; the line keeps its MAC", async () => {
    const payment = await payForBox("Refused Move", { lineType: "mag", mac: "00:1A:79:60:60:01" });
    await t.app.provisioning.drain();
    const clientId = payment.client_id as string;
    const { cookie } = await clientSession(t.app, clientId);
    fake.lines.set("9060", {
      ...fake.made()[0],
      id: "9060",
      device_id: "9960",
      mac: "00:1A:79:60:60:99",
      reseller_notes: "someone else's box",
    });
    const asked = await t.app.inject({
      method: "POST",
      url: "/api/client/line/mac",
      payload: { mac: "00:1a:79:60:60:99" },
      cookies: cookie,
      headers: { origin: PUBLIC_URL, "idempotency-key": "refused-1" },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    await t.app.provisioning.drain();
    const [job] = await t.app.db
      .select()
      .from(provisioningJobs)
      .where(and(eq(provisioningJobs.client_id, clientId), eq(provisioningJobs.action, "change_mac")));
    expect(job.status).toBe("failed");
    expect((await me(cookie)).line).toMatchObject({ mac: "00:1A:79:60:60:01", mac_change: null });
    const [change] = await t.app.db.select().from(lineMacChanges).where(eq(lineMacChanges.client_id, clientId));
    expect(change.status).toBe("failed");
  });

  it("an app's line says m3u with no MAC; its ISP lock resets with one edit_line isp_clear; a MAC change is refused with why", async () => {
    const payment = await payForBox("Andile App", {});
    await t.app.provisioning.drain();
    const clientId = payment.client_id as string;
    const { cookie } = await clientSession(t.app, clientId);
    const line = (await me(cookie)).line;
    expect(line).toMatchObject({ type: "m3u", mac: "", self_service: true });
    expect(line.m3u_url).toContain("get.php");
    const lineId = (await clientRow(clientId)).panel_line_id;

    const reset = await t.app.inject({
      method: "POST",
      url: "/api/client/line/isp-reset",
      cookies: cookie,
      headers: { origin: PUBLIC_URL, "idempotency-key": "app-isp-1" },
    });
    expect(reset.statusCode).toBe(202);
    await t.app.provisioning.drain();
    expect(
      fake
        .callsOf("edit_line")
        .filter((c) => c.form.isp_clear)
        .map((c) => c.form),
    ).toEqual([{ id: lineId, isp_clear: "1" }]);
    const [job] = await t.app.db
      .select()
      .from(provisioningJobs)
      .where(and(eq(provisioningJobs.client_id, clientId), eq(provisioningJobs.action, "isp_clear")));
    expect(job.status).toBe("done");

    const refused = await t.app.inject({
      method: "POST",
      url: "/api/client/line/mac",
      payload: { mac: "00:1A:79:00:00:09" },
      cookies: cookie,
      headers: { origin: PUBLIC_URL },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe("Your line is an app's login, not a box's: there is no MAC address to change.");
    expect(await t.app.db.select().from(lineMacChanges).where(eq(lineMacChanges.client_id, clientId))).toEqual([]);
  });

  it("an Enigma2 receiver's message says where it connects and its MAC, with no login or M3U link", async () => {
    const payment = await payForBox("Eddie Enigma", { lineType: "enigma2", mac: "AA:BB:CC:DD:EE:02" });
    await t.app.provisioning.drain();
    const [message] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, payment.client_id as string), eq(outbox.kind, "credentials")));
    expect(message.body).toContain("Hi Eddie,");
    expect(message.body).toContain("your Enigma2 receiver with MAC address AA:BB:CC:DD:EE:02");
    expect(message.body).toContain(`Your receiver connects to ${STREAM}.`);
    expect(message.body).not.toContain("get.php");
    expect(message.body).not.toMatch(/password|e-?mail/i);
    const { cookie } = await clientSession(t.app, payment.client_id as string);
    expect((await me(cookie)).line).toMatchObject({ type: "enigma2", mac: "AA:BB:CC:DD:EE:02", server_url: STREAM });
  });

  it("the order form's box and MAC are kept with the lead, and the client made from it is the box's; a malformed MAC is a 400", async () => {
    const bad = await t.app.inject({
      method: "POST",
      url: "/api/orders",
      payload: { name: "Olwethu Order", email: "olwethu@example.co.za", whatsapp: "082 777 1001", lineType: "mag", mac: "00:1A:79" },
      remoteAddress: ip(),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.mac).toBe(MAC_MESSAGE);

    const ordered = await t.app.inject({
      method: "POST",
      url: "/api/orders",
      payload: {
        name: "Olwethu Order",
        email: "olwethu@example.co.za",
        whatsapp: "082 777 1001",
        package: "Month to Month",
        lineType: "mag",
        mac: "00-1a-79-70-70-01",
      },
      remoteAddress: ip(),
    });
    expect(ordered.statusCode, ordered.body).toBe(201);
    const leadId = ordered.json().id as string;
    const [lead] = await t.app.db.select().from(leads).where(eq(leads.id, leadId));
    expect(lead.payload).toMatchObject({ lineType: "mag", mac: "00-1a-79-70-70-01" });
    const [owners] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.lead_id, leadId), eq(outbox.channel, "email")));
    expect(owners.body).toContain("Box: MAG box, MAC 00:1A:79:70:70:01");

    const converted = await admin.call({ method: "POST", url: `/api/admin/leads/${leadId}/convert`, payload: {} });
    expect(converted.statusCode, converted.body).toBe(201);
    expect(await clientRow(converted.json().client.id)).toMatchObject({ line_type: "mag", line_mac: "00:1A:79:70:70:01" });
  });
});

describe("the owner's MAC tool (POST /api/admin/clients/:id/line-mac)", () => {
  const setMac = (clientId: string, payload: Record<string, string>, key?: string) =>
    admin.call({
      method: "POST",
      url: `/api/admin/clients/${clientId}/line-mac`,
      payload,
      headers: key ? { "idempotency-key": key } : {},
    });

  it("a box whose line is not made yet gets its MAC (and type): saved, audited, no panel job; the line is then made with it", async () => {
    const made = await admin.call({
      method: "POST",
      url: "/api/admin/clients",
      payload: { full_name: "Owner Set", whatsapp: "082 555 3001", communication_method: "whatsapp" },
    });
    expect(made.statusCode, made.body).toBe(201);
    const clientId = made.json().client.id as string;
    const refused = await setMac(clientId, { mac: "00:1A:79" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.mac).toBe(MAC_MESSAGE);

    const saved = await setMac(clientId, { mac: "00:1a:79:30:30:01", lineType: "mag" });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toEqual({ line_type: "mag", line_mac: "00:1A:79:30:30:01", change: null });
    expect(await clientRow(clientId)).toMatchObject({ line_type: "mag", line_mac: "00:1A:79:30:30:01", panel_line_id: null });
    expect(await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.client_id, clientId))).toEqual([]);
    const [entry] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "mac-change"), eq(auditLog.resource_id, clientId)));
    expect(entry).toMatchObject({ admin_id: admin.adminId, before: { line_type: "m3u", line_mac: "" } });
    expect(entry.after).toMatchObject({ line_type: "mag", line_mac: "00:1A:79:30:30:01" });

    // paid for: the line is made for that box
    const paid = await admin.call({
      method: "POST",
      url: "/api/admin/payments",
      payload: { client_id: clientId, package_id: monthId, amount: 250 },
    });
    expect(paid.statusCode).toBe(201);
    await t.app.provisioning.drain();
    expect(fake.callsOf("create_mag").at(-1)?.form.mac).toBe("00:1A:79:30:30:01");
  });

  it("a line on the panel moves with one edit_mag under replays, without the client's cooldown, and does not count against their limit", async () => {
    await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: "mac_change_cooldown_hours", value: "24" } });
    await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: "mac_change_monthly_limit", value: "1" } });
    const payment = await payForBox("Owner Moves", { lineType: "mag", mac: "00:1A:79:40:40:01" });
    await t.app.provisioning.drain();
    const clientId = payment.client_id as string;
    const deviceId = (await clientRow(clientId)).panel_line_id as string;
    const { cookie } = await clientSession(t.app, clientId);
    // the client's own change first: their one change this month, and the cooldown starts
    const own = await t.app.inject({
      method: "POST",
      url: "/api/client/line/mac",
      payload: { mac: "00:1A:79:40:40:02" },
      cookies: cookie,
      headers: { origin: PUBLIC_URL, "idempotency-key": "own-1" },
    });
    expect(own.statusCode).toBe(202);
    await t.app.provisioning.drain();

    const answers = await Promise.all([
      setMac(clientId, { mac: "00:1A:79:40:40:03" }, "owner-1"),
      setMac(clientId, { mac: "00:1A:79:40:40:03" }, "owner-1"),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202]);
    expect(answers[0].json().data.change.id).toBe(answers[1].json().data.change.id);
    await Promise.all([t.app.provisioning.drain(), t.app.provisioning.drain()]);
    expect(
      fake
        .callsOf("edit_mag")
        .filter((c) => c.form.id === deviceId && c.form.mac)
        .map((c) => c.form.mac),
    ).toEqual(["00:1A:79:40:40:02", "00:1A:79:40:40:03"]);
    expect((await clientRow(clientId)).line_mac).toBe("00:1A:79:40:40:03");
    const audits = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "mac-change"), eq(auditLog.resource_id, clientId), eq(auditLog.admin_id, admin.adminId)));
    expect(audits).toHaveLength(1);

    // a line on the panel keeps its type
    const retype = await setMac(clientId, { mac: "AA:BB:CC:DD:EE:40", lineType: "enigma2" });
    expect(retype.statusCode).toBe(409);
    // the client's own limit counts only their change: still the cooldown's 409, not a third change counted
    const early = await t.app.inject({
      method: "POST",
      url: "/api/client/line/mac",
      payload: { mac: "00:1A:79:40:40:04" },
      cookies: cookie,
      headers: { origin: PUBLIC_URL },
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.message).toMatch(/^You changed your box's MAC address a short while ago\./);
  });
});

describe.runIf(onPostgres())(
  "PostgreSQL only (PGlite is one connection: nothing races there): a box's line on two processes at the same moment",
  () => {
    let other: OtherProcess;
    beforeAll(async () => {
      other = await secondProcess(t);
    });
    afterAll(async () => {
      await other?.close();
    });
    /** Both processes' provisioning workers, each claim waiting behind the lock on the jobs, let go together. */
    const drainBoth = () =>
      startTogether(t.database.url as string, "LOCK TABLE provisioning_jobs IN EXCLUSIVE MODE", 2, () =>
        Promise.all([t.app.provisioning.drain(), other.app.provisioning.drain()]),
      );

    it("a payment delivered to both and two workers draining together make one create_mag", async () => {
      const mac = "00:1A:79:00:0A:01";
      const payment = await payForBox("Palesa Race", { lineType: "mag", mac });
      expect((await deliverSandboxAgain(other.app, payment, SANDBOX_SECRET)).statusCode).toBe(200);
      await drainBoth();
      expect(fake.callsOf("create_mag").filter((c) => c.form.mac === mac)).toHaveLength(1);
      const row = await clientRow(payment.client_id as string);
      expect(row).toMatchObject({ line_mac: mac, line_enabled: true });
      expect([...fake.lines.values()].filter((l) => l.mac === mac).map((l) => l.device_id)).toEqual([row.panel_line_id]);
    });

    it("one MAC change (one key) sent to both: both answered with the one change; two workers make one edit_mag", async () => {
      const payment = await payForBox("Tumi Race", { lineType: "mag", mac: "00:1A:79:00:0B:01" });
      await t.app.provisioning.drain();
      const clientId = payment.client_id as string;
      const deviceId = (await clientRow(clientId)).panel_line_id as string;
      const { cookie } = await clientSession(t.app, clientId);
      const change = (app: TestApp["app"]) =>
        app.inject({
          method: "POST",
          url: "/api/client/line/mac",
          payload: { mac: "00:1a:79:00:0b:02" },
          cookies: cookie,
          headers: { origin: PUBLIC_URL, "idempotency-key": "pg-race-mac" },
        });
      const answers = await startTogether(t.database.url as string, "LOCK TABLE line_mac_changes IN EXCLUSIVE MODE", 2, () =>
        Promise.all([change(t.app), change(other.app)]),
      );
      expect(
        answers.map((a) => a.statusCode),
        answers.map((a) => a.body).join(" "),
      ).toEqual([202, 202]);
      expect(answers[0].json().data.id).toBe(answers[1].json().data.id);
      await drainBoth();
      expect(fake.callsOf("edit_mag").filter((c) => c.form.id === deviceId && c.form.mac)).toEqual([
        expect.objectContaining({ form: { id: deviceId, mac: "00:1A:79:00:0B:02" } }),
      ]);
      expect((await clientRow(clientId)).line_mac).toBe("00:1A:79:00:0B:02");
      expect(await t.app.db.select().from(lineMacChanges).where(eq(lineMacChanges.client_id, clientId))).toHaveLength(1);
      const audits = await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "mac-change"), eq(auditLog.resource_id, clientId)));
      expect(audits).toHaveLength(1);
    });
  },
);
