// Issue 25 item 5: the owner's alerts, on the owner's own channels (their alert e-mail and, with
// the WhatsApp Cloud API, their number), once per cause however often the cause repeats or is
// retried — a panel job failed, panel credits fell below the warning, a new EFT order, a message
// given up on — and the daily digest once a day however many runs ask; nothing when switched
// off. The settings are checked where they are saved (a 400 on value, nothing written). Against
// the fake Xtream panel and the fake WhatsApp Cloud API on loopback ports.
import { and, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeWhatsAppCloud, startFakeWhatsAppCloud } from "@/server/adapters/fake-whatsapp-cloud";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { openDatabase } from "@/server/db/client";
import {
  capturedPayments,
  clientLifecycleEvents,
  outbox,
  packages,
  panelPackageMap,
  provisioningJobs,
  refundAttempts,
  siteSettings,
  whatsappTemplates,
  whatsappWindows,
} from "@/server/db/schema";
import { digestAlert, digestFacts, digestKey, runOwnerDigest } from "@/server/jobs/owner-digest";
import { signedInAdmin } from "@/server/modules/admin-auth/test-helpers";
import { makeClient, nextIp } from "@/server/modules/client/test-helpers";
import { createTestApp, fillBankDetails, onPostgres, type TestApp } from "@/server/testing";
import { OWNER_ALERT_CAUSES, OWNER_ALERT_MESSAGES, OWNER_ALERT_SETTINGS, ownerAlertPrefs } from "@/shared/owner-alerts";
import { enqueue } from "./outbox";
import { alertRecipients, loadAlertRoute, outboxFailedAlert, queueOwnerAlert } from "./owner-alerts";

const PUBLIC_URL = "http://localhost:8080";
const TOKEN = "EAAG-owner-alerts";
const PHONE_NUMBER_ID = "109876500001";
const OWNER_EMAIL = "thandi.owner@example.co.za";
const OWNER_NUMBER = "27825550100";

let t: TestApp;
let panel: FakeXtreamPanel;
let whatsapp: FakeWhatsAppCloud;
let cookie: string;
const pkgId: Record<string, string> = {};

beforeAll(async () => {
  panel = await startFakeXtreamPanel({ credits: 100 });
  whatsapp = await startFakeWhatsAppCloud({ token: TOKEN, phoneNumberId: PHONE_NUMBER_ID });
  t = await createTestApp(config(), { seed: true });
  cookie = (await signedInAdmin(t.app)).cookie;
  for (const p of await t.app.db.select({ id: packages.id, name: packages.name }).from(packages)) pkgId[p.name] = p.id;
  await setSetting(OWNER_ALERT_SETTINGS.email, OWNER_EMAIL);
  await setSetting(OWNER_ALERT_SETTINGS.whatsapp, OWNER_NUMBER);
});
afterAll(async () => {
  await t?.close();
  await panel?.close();
  await whatsapp?.close();
});

/** The app's configuration: our fake panel and fake Cloud API. */
const config = () => ({
  PUBLIC_URL,
  PANEL_API_URL: panel.url,
  PANEL_API_KEY: panel.apiKey,
  PANEL_TIMEOUT_MS: 2_000,
  WHATSAPP_TOKEN: TOKEN,
  WHATSAPP_PHONE_NUMBER_ID: PHONE_NUMBER_ID,
  WHATSAPP_API_URL: whatsapp.url,
});

async function setSetting(key: string, value: string) {
  await t.app.db
    .insert(siteSettings)
    .values({ key, value })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value, updated_at: new Date() } });
}
const stored = async (key: string) => (await t.app.db.select().from(siteSettings).where(eq(siteSettings.key, key)))[0]?.value;
/** The owner-alert rows whose dedupe key starts with this. */
const alertsFor = (key: string) =>
  t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.kind, "owner-alert"), like(outbox.dedupe_key, `${key}%`)))
    .orderBy(outbox.channel);

const save = (key: string, value: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/admin/settings",
    headers: { origin: PUBLIC_URL, cookie },
    payload: { key, value },
  });

describe("the owner-alert settings where they are saved", () => {
  const onOff = Object.values(OWNER_ALERT_CAUSES).map((c) => [
    c.setting,
    ["on", "off", ""],
    ["yes", "0", "OFF!"],
    OWNER_ALERT_MESSAGES.onOff,
  ]);
  it.each([
    [OWNER_ALERT_SETTINGS.email, ["boss@example.co.za", ""], ["boss@", "not an address", "boss@example"], OWNER_ALERT_MESSAGES.email],
    [OWNER_ALERT_SETTINGS.whatsapp, ["082 555 0199", ""], ["12345", "+44 20 7946 0000", "082 555 01"], OWNER_ALERT_MESSAGES.whatsapp],
    [OWNER_ALERT_SETTINGS.digest, ["on", "off"], ["daily", "true"], OWNER_ALERT_MESSAGES.onOff],
    [OWNER_ALERT_SETTINGS.digestHour, ["0", "7", "23", ""], ["24", "-1", "7.5", "seven", "07:00"], OWNER_ALERT_MESSAGES.digestHour],
    ...onOff,
  ] as [string, string[], string[], string][])(
    "%s accepts %j and refuses %j with a 400 on value, nothing saved",
    async (key, good, bad, message) => {
      const before = await stored(key);
      for (const value of good) {
        const res = await save(key, value);
        expect([200, 201], res.body).toContain(res.statusCode);
      }
      const last = await stored(key);
      for (const value of bad) {
        const res = await save(key, value);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.fields).toEqual({ value: message });
        expect(await stored(key)).toBe(last);
      }
      if (before !== undefined) await setSetting(key, before);
      else await t.app.db.delete(siteSettings).where(eq(siteSettings.key, key));
    },
  );

  it("stores the number as 27…, refuses a bad one on PATCH too, and never shows the address or number on the public settings", async () => {
    expect((await save(OWNER_ALERT_SETTINGS.whatsapp, "+27 (82) 555-0123")).statusCode).toBe(200);
    expect(await stored(OWNER_ALERT_SETTINGS.whatsapp)).toBe("27825550123");
    const [row] = await t.app.db.select().from(siteSettings).where(eq(siteSettings.key, OWNER_ALERT_SETTINGS.whatsapp));
    const patch = (value: string) =>
      t.app.inject({ method: "PATCH", url: `/api/admin/settings/${row.id}`, headers: { origin: PUBLIC_URL, cookie }, payload: { value } });
    const refused = await patch("0800 12");
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields).toEqual({ value: OWNER_ALERT_MESSAGES.whatsapp });
    expect(await stored(OWNER_ALERT_SETTINGS.whatsapp)).toBe("27825550123");
    expect((await patch("082 555 0100")).statusCode).toBe(200);
    expect(await stored(OWNER_ALERT_SETTINGS.whatsapp)).toBe(OWNER_NUMBER);

    const pub = await t.app.inject({ method: "GET", url: "/api/settings" });
    expect(pub.statusCode).toBe(200);
    expect(pub.body).not.toContain(OWNER_EMAIL);
    expect(pub.body).not.toContain(OWNER_NUMBER);
    expect(Object.keys(pub.json().data ?? pub.json())).not.toContain(OWNER_ALERT_SETTINGS.email);
  });
});

describe("where an alert goes", () => {
  const prefs = (email: string, number: string) =>
    ownerAlertPrefs({ [OWNER_ALERT_SETTINGS.email]: email, [OWNER_ALERT_SETTINGS.whatsapp]: number });
  // route.email is the alerts e-mail: the owner's alert address, else the first admin's (alertsEmail)
  it.each([
    ["e-mail and number, Cloud API", OWNER_EMAIL, OWNER_NUMBER, true, [`email:${OWNER_EMAIL}`, `whatsapp:${OWNER_NUMBER}`]],
    ["e-mail and number, no Cloud API: e-mail only", OWNER_EMAIL, OWNER_NUMBER, false, [`email:${OWNER_EMAIL}`]],
    ["number, Cloud API: the alerts e-mail and the number", "", OWNER_NUMBER, true, [`email:${OWNER_EMAIL}`, `whatsapp:${OWNER_NUMBER}`]],
    ["number, no Cloud API: the alerts e-mail", "", OWNER_NUMBER, false, [`email:${OWNER_EMAIL}`]],
  ])("%s", (_name, email, number, cloudApi, expected) => {
    const to = alertRecipients({ prefs: prefs(email, number), email: OWNER_EMAIL, cloudApi });
    expect(to.map((r) => `${r.channel}:${r.recipient}`)).toEqual(expected);
  });
  it("no alerts e-mail (no admin yet) and no Cloud API: nowhere (the dashboard shows it)", () => {
    expect(alertRecipients({ prefs: prefs("", OWNER_NUMBER), email: "", cloudApi: false })).toEqual([]);
  });
});

describe("a panel job failed", () => {
  const renewalWithoutLine = async (username: string) => {
    const client = await makeClient(t.app, { username, full_name: "Lerato Ndlovu", status: "active" });
    const [job] = await t.app.db
      .insert(provisioningJobs)
      .values({ client_id: client.id, action: "extend_line", cause_key: `test:${username}:extend_line`, package_name: "3 Months" })
      .returning();
    return job;
  };

  it("alerts the owner once on each channel, with the panel's words and the retry link, however often the retry fails", async () => {
    const job = await renewalWithoutLine("lerato.alerts");
    await t.app.provisioning.drain();
    const alerts = await alertsFor(`panel-failed:${job.id}`);
    expect(alerts.map((a) => [a.channel, a.recipient, a.dedupe_key])).toEqual([
      ["email", OWNER_EMAIL, `panel-failed:${job.id}`],
      ["whatsapp", OWNER_NUMBER, `panel-failed:${job.id}:whatsapp`],
    ]);
    expect(alerts[0].subject).toBe("Panel job failed: could not renew the line for Lerato Ndlovu");
    expect(alerts[0].body).toContain("The panel said: This client has no line on the panel yet. (NO_LINE)");
    expect(alerts[0].body).toContain(`${PUBLIC_URL}/admin/panel`);

    for (let i = 0; i < 2; i++) {
      await t.app.db
        .update(provisioningJobs)
        .set({ status: "pending", next_attempt_at: new Date(0) })
        .where(eq(provisioningJobs.id, job.id));
      await Promise.all([t.app.provisioning.drain(), t.app.provisioning.drain()]);
    }
    const [again] = await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.id, job.id));
    expect(again.status).toBe("failed");
    expect(await alertsFor(`panel-failed:${job.id}`)).toHaveLength(2);
  });

  it("alerts once about a job the server stopped in the middle of", async () => {
    const job = await renewalWithoutLine("sipho.interrupted");
    await t.app.db
      .update(provisioningJobs)
      .set({ status: "running", updated_at: new Date(Date.now() - 60 * 60_000) })
      .where(eq(provisioningJobs.id, job.id));
    await Promise.all([t.app.provisioning.claim(), t.app.provisioning.claim()]);
    await t.app.provisioning.claim();
    const [failed] = await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.id, job.id));
    expect(failed.error_status).toBe("INTERRUPTED");
    const alerts = await alertsFor(`panel-failed:${job.id}`);
    expect(alerts).toHaveLength(2);
    expect(alerts[0].subject).toBe("Panel job interrupted: check whether the panel did renew the line for Lerato Ndlovu");
    expect(alerts[0].body).toContain(
      "The server stopped while asking the panel to renew the line (3 Months line) for Lerato Ndlovu (sipho.interrupted): it may or may not have happened.",
    );
    expect(alerts[0].body).toContain(`${PUBLIC_URL}/admin/panel`);
  });

  it("is not sent while the owner has switched it off", async () => {
    await setSetting(OWNER_ALERT_CAUSES["panel-failed"].setting, "off");
    const job = await renewalWithoutLine("zanele.quiet");
    await t.app.provisioning.drain();
    const [failed] = await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.id, job.id));
    expect(failed.status).toBe("failed");
    expect(await alertsFor(`panel-failed:${job.id}`)).toHaveLength(0);
    await setSetting(OWNER_ALERT_CAUSES["panel-failed"].setting, "");
  });
});

describe("panel credits below the warning", () => {
  const lowAlerts = () => alertsFor("owner-alert:low-credits:");
  // The fake's balance changes behind the dashboard's back, so each look reads the panel now
  // (the Refresh button) rather than the panel read kept for panel_cache_minutes.
  const viewPanel = () => t.app.inject({ method: "POST", url: "/api/admin/panel/refresh", headers: { cookie, origin: PUBLIC_URL } });

  it("alerts once per crossing, wherever the balance is read, and again only after a top-up", async () => {
    await setSetting("panel_credit_warning", "10");
    panel.credits = 50;
    expect((await viewPanel()).json()).toMatchObject({ credits: 50, low_credits: false });
    expect(await lowAlerts()).toHaveLength(0);

    // A paid line spends 3 credits: 12 → 9 crosses the warning of 10; the worker reads the balance.
    panel.credits = 12;
    await t.app.db.insert(panelPackageMap).values({ package_id: pkgId["3 Months"], panel_package_id: "3" }).onConflictDoNothing();
    const client = await makeClient(t.app, { username: "ayanda.credits", full_name: "Ayanda Zulu", status: "active" });
    await t.app.db.insert(provisioningJobs).values({
      client_id: client.id,
      action: "create_line",
      cause_key: "test:credits:create_line",
      package_id: pkgId["3 Months"],
      package_name: "3 Months",
    });
    await t.app.provisioning.drain();
    expect(panel.credits).toBe(9);
    let alerts = await lowAlerts();
    expect(alerts.map((a) => a.channel)).toEqual(["email", "whatsapp"]);
    expect(alerts[0].subject).toBe("Panel credits low: 9 credits left (your warning is below 10)");
    expect(alerts[0].body).toContain(`${PUBLIC_URL}/admin/panel`);

    // Read again, by two requests at once, and lower still: the same crossing, no new alert.
    await Promise.all([viewPanel(), viewPanel()]);
    panel.credits = 4;
    expect((await viewPanel()).json()).toMatchObject({ credits: 4, low_credits: true });
    expect(await lowAlerts()).toHaveLength(2);

    // Topped up, then below again: a second crossing, a second alert.
    panel.credits = 40;
    await viewPanel();
    expect(await lowAlerts()).toHaveLength(2);
    panel.credits = 2;
    await Promise.all([viewPanel(), viewPanel()]);
    alerts = await lowAlerts();
    expect(alerts).toHaveLength(4);
    expect(alerts.filter((a) => a.subject.startsWith("Panel credits low: 2 credits left"))).toHaveLength(2);
  });

  it("is not sent while switched off (the crossing still counts)", async () => {
    panel.credits = 40;
    await viewPanel();
    await setSetting(OWNER_ALERT_CAUSES["low-credits"].setting, "off");
    panel.credits = 1;
    await viewPanel();
    expect(await lowAlerts()).toHaveLength(4);
    await setSetting(OWNER_ALERT_CAUSES["low-credits"].setting, "");
    panel.credits = 100;
    await viewPanel();
  });
});

describe("a new EFT order", () => {
  const eft = (payload: Record<string, unknown>) =>
    t.app.inject({
      method: "POST",
      url: "/api/payments/eft",
      payload: { name: "Naledi Khumalo", whatsapp: "082 555 1234", immediateStartConsent: true, ...payload },
      remoteAddress: nextIp(),
    });

  it("alerts once: who, how much, the reference and where to confirm it; asking again gives no second alert", async () => {
    await fillBankDetails(t.app);
    const first = await eft({ packageId: pkgId["3 Months"], email: "naledi@example.co.za" });
    expect(first.statusCode, first.body).toBe(201);
    const { reference } = first.json();
    const [payment] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.external_transaction_id, reference));
    const again = await eft({ packageId: pkgId["3 Months"], email: "naledi@example.co.za" });
    expect(again.json().reference).toBe(reference);

    const alerts = await alertsFor(`owner-alert:eft-order:${payment.id}`);
    expect(alerts.map((a) => [a.channel, a.recipient])).toEqual([
      ["email", OWNER_EMAIL],
      ["whatsapp", OWNER_NUMBER],
    ]);
    expect(alerts[0].subject).toBe(`New EFT order: R1,450 for 3 Months from Naledi Khumalo (${reference})`);
    expect(alerts[0].body).toContain(
      `Naledi Khumalo (WhatsApp +27 82 555 1234, naledi@example.co.za) asked to pay R1,450 by EFT for 3 Months and was given the bank details with reference ${reference}.`,
    );
    expect(alerts[0].body).toContain(`${PUBLIC_URL}/admin/payments?status=pending&provider=eft&q=${reference}`);
    expect(alerts[0].body).not.toContain("e-mail");
  });

  it("is not sent while switched off", async () => {
    await setSetting(OWNER_ALERT_CAUSES["eft-order"].setting, "off");
    // (a package mapped to the panel's: one with no panel package is not sold at all, lib/sellable.ts)
    const res = await eft({ packageId: pkgId["3 Months"], name: "Pieter Botha", whatsapp: "082 555 7788" });
    expect(res.statusCode).toBe(201);
    const [payment] = await t.app.db
      .select()
      .from(capturedPayments)
      .where(eq(capturedPayments.external_transaction_id, res.json().reference));
    expect(await alertsFor(`owner-alert:eft-order:${payment.id}`)).toHaveLength(0);
    await setSetting(OWNER_ALERT_CAUSES["eft-order"].setting, "");
  });
});

describe("a message given up on", () => {
  const CUSTOMER = "27825551900";

  /** A customer's WhatsApp message inside their window, which the Cloud API refuses as wrong (a 400: no retry helps). */
  async function refusedMessage(key: string) {
    await t.app.db
      .insert(whatsappWindows)
      .values({ number: CUSTOMER, last_inbound_at: new Date() })
      .onConflictDoUpdate({ target: whatsappWindows.number, set: { last_inbound_at: new Date() } });
    const client = await makeClient(t.app, { username: `bongani.${key}`, full_name: "Bongani Mokoena", status: "active" });
    // Queued for later, and everything else due sent first, so the refusal meets this message.
    const later = new Date(Date.now() + 3_600_000);
    const message = { channel: "whatsapp" as const, recipient: CUSTOMER, body: "Your receipt", kind: "receipt" };
    await enqueue(t.app.db, { ...message, client_id: client.id, dedupe_key: `test:${key}`, notBefore: later });
    await t.app.outbox.drain();
    whatsapp.failNext(400, 131026, "Message undeliverable");
    await t.app.db
      .update(outbox)
      .set({ next_attempt_at: new Date(0) })
      .where(eq(outbox.dedupe_key, `test:${key}`));
    await t.app.outbox.drain();
    const [row] = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `test:${key}`));
    return row;
  }

  it("alerts once, with whom, why and the link; a retry that fails again and a failed alert add nothing", async () => {
    const row = await refusedMessage("failed");
    expect(row.status).toBe("failed");
    const alerts = await alertsFor(`owner-alert:outbox-failed:${row.id}`);
    expect(alerts.map((a) => [a.channel, a.recipient])).toEqual([
      ["email", OWNER_EMAIL],
      ["whatsapp", OWNER_NUMBER],
    ]);
    expect(alerts[0].subject).toBe("Not sent: Payment receipt WhatsApp message to Bongani Mokoena");
    expect(alerts[0].body).toContain(
      "The Payment receipt WhatsApp message to Bongani Mokoena (WhatsApp +27 82 555 1900) could not be sent",
    );
    expect(alerts[0].body).toContain("Message undeliverable");
    expect(alerts[0].body).toContain(`${PUBLIC_URL}/admin/outbox?status=failed`);

    // The owner retries it and it fails again: the same cause, no second alert.
    whatsapp.failNext(400, 131026, "Message undeliverable");
    await t.app.db
      .update(outbox)
      .set({ status: "pending", next_attempt_at: new Date(0) })
      .where(eq(outbox.id, row.id));
    await t.app.outbox.drain();
    expect((await t.app.db.select().from(outbox).where(eq(outbox.id, row.id)))[0].status).toBe("failed");
    expect(await alertsFor(`owner-alert:outbox-failed:${row.id}`)).toHaveLength(2);

    // The owner's own WhatsApp alert fails too: no alert about an alert.
    const ownerRow = alerts[1];
    await t.app.db
      .insert(whatsappWindows)
      .values({ number: OWNER_NUMBER, last_inbound_at: new Date() })
      .onConflictDoUpdate({ target: whatsappWindows.number, set: { last_inbound_at: new Date() } });
    whatsapp.failNext(400, 131026, "Message undeliverable");
    await t.app.db
      .update(outbox)
      .set({ status: "pending", next_attempt_at: new Date(0) })
      .where(eq(outbox.id, ownerRow.id));
    await t.app.outbox.drain();
    expect((await t.app.db.select().from(outbox).where(eq(outbox.id, ownerRow.id)))[0].status).toBe("failed");
    expect(await alertsFor(`owner-alert:outbox-failed:${ownerRow.id}`)).toHaveLength(0);
    await t.app.db.delete(whatsappWindows).where(eq(whatsappWindows.number, OWNER_NUMBER));
  });

  it("is not sent while switched off", async () => {
    await setSetting(OWNER_ALERT_CAUSES["outbox-failed"].setting, "off");
    const row = await refusedMessage("quiet");
    expect(row.status).toBe("failed");
    expect(await alertsFor(`owner-alert:outbox-failed:${row.id}`)).toHaveLength(0);
    await setSetting(OWNER_ALERT_CAUSES["outbox-failed"].setting, "");
  });

  it("reaches the owner's number through the Cloud API as the approved owner-alert template", async () => {
    whatsapp.approve("owner_alert", "en", 1);
    await t.app.db
      .insert(whatsappTemplates)
      .values({ kind: "owner-alert", template_name: "owner_alert", language_code: "en", params: ["body"] })
      .onConflictDoNothing();
    whatsapp.messages.length = 0;
    const row = await refusedMessage("templated");
    const [, ownerRow] = await alertsFor(`owner-alert:outbox-failed:${row.id}`);
    await t.app.outbox.drain();
    expect((await t.app.db.select().from(outbox).where(eq(outbox.id, ownerRow.id)))[0]).toMatchObject({
      status: "sent",
      sent_via: "cloud-template:owner_alert",
    });
    const sent = whatsapp.messages.filter((m) => m.to === OWNER_NUMBER);
    expect(sent).toHaveLength(1);
    expect(sent[0].template?.parameters[0]).toContain("could not be sent");
    await t.app.db.delete(whatsappTemplates).where(eq(whatsappTemplates.kind, "owner-alert"));
  });
});

describe("the words of a message given up on, per channel", () => {
  const failed = (channel: string, recipient: string) => ({ id: "row-1", kind: "receipt", channel, recipient, attempts: 8 });
  it.each([
    // failed message's channel, the alert's own channel, the subject, the failed message as the body names it, the reason
    [
      "whatsapp",
      "email",
      "Not sent: Payment receipt WhatsApp message to Bongani Mokoena",
      "(WhatsApp +27 82 555 1900)",
      "no e-mail transport",
    ],
    [
      "whatsapp",
      "whatsapp",
      "Not sent: Payment receipt WhatsApp message to Bongani Mokoena",
      "(WhatsApp +27 82 555 1900)",
      "no mail transport",
    ],
    ["email", "email", "Not sent: Payment receipt e-mail to Bongani Mokoena", "(bongani@example.co.za)", "no e-mail transport"],
    ["email", "whatsapp", "Not sent: Payment receipt message to Bongani Mokoena", "(bongani@example.co.za)", "no mail transport"],
  ] as const)("a failed %s message, alerted by %s: names its real channel", (channel, alertChannel, subject, named, reason) => {
    const recipient = channel === "whatsapp" ? "27825551900" : "bongani@example.co.za";
    const alert = outboxFailedAlert(PUBLIC_URL, failed(channel, recipient), "Bongani Mokoena", "no e-mail transport");
    const words = alertChannel === "whatsapp" ? alert.whatsapp : alert;
    expect(words?.subject).toBe(subject);
    expect(words?.body).toContain(`Bongani Mokoena ${named} could not be sent after 8 tries`);
    expect(words?.body).toContain(`The reason: ${reason}`);
    // A WhatsApp text never says e-mail, even about an e-mail (the address itself aside).
    if (alertChannel === "whatsapp") expect(words?.body.replace(recipient, "")).not.toMatch(/e-?mail/i);
  });

  it("queued to the owner's e-mail and WhatsApp: each row in its own channel's words", async () => {
    const row = { ...failed("email", "bongani@example.co.za"), id: "7d1c0b6e-0000-4000-8000-00000000e0a1" };
    const alert = outboxFailedAlert(PUBLIC_URL, row, "Bongani Mokoena", "no e-mail transport");
    await t.app.db.transaction(async (tx) => queueOwnerAlert(tx, await loadAlertRoute(tx, true), alert));
    const [email, whatsappAlert, ...more] = await alertsFor(`owner-alert:outbox-failed:${row.id}`);
    expect(more).toHaveLength(0);
    expect(email).toMatchObject({
      channel: "email",
      recipient: OWNER_EMAIL,
      subject: "Not sent: Payment receipt e-mail to Bongani Mokoena",
    });
    expect(email.body).toContain("The reason: no e-mail transport");
    expect(whatsappAlert).toMatchObject({
      channel: "whatsapp",
      recipient: OWNER_NUMBER,
      subject: "Not sent: Payment receipt message to Bongani Mokoena",
    });
    expect(whatsappAlert.body).toContain("The Payment receipt message to Bongani Mokoena (bongani@example.co.za) could not be sent");
    expect(whatsappAlert.body.replace("bongani@example.co.za", "")).not.toMatch(/e-?mail/i);
  });
});

describe("the daily digest", () => {
  // A day of our own, far from the other tests' rows: 9 Mar 2031 in South Africa.
  const at = (iso: string) => new Date(iso);
  const YESTERDAY = "2031-03-09";

  async function seedYesterday() {
    const inDay = (hhmm: string) => at(`${YESTERDAY}T${hhmm}:00+02:00`);
    const trialist = await makeClient(t.app, {
      username: "digest.trial",
      full_name: "Thabo Trial",
      status: "active",
      created_at: inDay("08:00"),
    });
    const payer = await makeClient(t.app, {
      username: "digest.payer",
      full_name: "Precious Payer",
      status: "active",
      created_at: inDay("00:10"),
    });
    // made the day before: not new yesterday
    await makeClient(t.app, { username: "digest.old", full_name: "Old Client", created_at: at("2031-03-08T23:59:00+02:00") });
    const events = [
      { client_id: trialist.id, cause: "trial-started", cause_key: "digest:trial:1", status_after: "trial", created_at: inDay("08:00") },
      { client_id: trialist.id, cause: "payment-captured", cause_key: "digest:pay:1", status_after: "active", created_at: inDay("20:00") },
      { client_id: payer.id, cause: "payment-captured", cause_key: "digest:pay:2", status_after: "active", created_at: inDay("00:10") },
    ];
    await t.app.db.insert(clientLifecycleEvents).values(events);
    await t.app.db.insert(capturedPayments).values([
      {
        provider: "eft",
        external_transaction_id: "DIGEST-1",
        amount: 1450,
        status: "paid",
        paid_at: inDay("20:00"),
        client_id: trialist.id,
      },
      {
        provider: "manual",
        external_transaction_id: "DIGEST-2",
        amount: 500,
        status: "paid",
        paid_at: inDay("00:10"),
        client_id: payer.id,
      },
      // the SAST day after: today's, not yesterday's
      { provider: "manual", external_transaction_id: "DIGEST-3", amount: 999, status: "paid", paid_at: at("2031-03-10T00:05:00+02:00") },
    ]);
  }

  it("names the refunds held at a provider, with the payments list that shows them, until they are settled", async () => {
    const [payment] = await t.app.db
      .insert(capturedPayments)
      .values({
        provider: "ozow",
        external_transaction_id: "DIGEST-HELD",
        amount: 650,
        status: "paid",
        paid_at: at("2031-03-01T10:00:00+02:00"),
      })
      .returning();
    const [attempt] = await t.app.db
      .insert(refundAttempts)
      .values({ payment_id: payment.id, provider: "ozow", amount_cents: 10000, sent_at: new Date(), request: { reason: "A day off air" } })
      .returning();
    const now = at("2031-03-10T09:00:00+02:00");
    const held = await digestFacts(t.app.db, now);
    expect(held.refundsHeld).toBe(1);
    expect(digestAlert(PUBLIC_URL, held).body).toContain(
      `- 1 refund not confirmed by the payment provider, the amount held until you refund again to check: ${PUBLIC_URL}/admin/payments?refund=held`,
    );
    await t.app.db.update(refundAttempts).set({ state: "failed" }).where(eq(refundAttempts.id, attempt.id));
    const settled = await digestFacts(t.app.db, now);
    expect(settled.refundsHeld).toBe(0);
    expect(digestAlert(PUBLIC_URL, settled).body).not.toContain("refund=held");
  });

  it("adds up yesterday in South African time", async () => {
    await seedYesterday();
    const facts = await digestFacts(t.app.db, at("2031-03-10T09:00:00+02:00"));
    expect(facts).toMatchObject({ day: YESTERDAY, payments: 2, received: 1950, newClients: 2, trialsStarted: 1, trialsConverted: 1 });
    const alert = digestAlert(PUBLIC_URL, { ...facts, failedPanelJobs: 2, failedMessages: 1, eftAwaiting: 0, whatsappToSend: 0 });
    expect(alert.subject).toBe("Your day, 9 Mar 2031: 2 payments, R1,950");
    expect(alert.body).toContain("- Payments: 2, R1,950 in total");
    expect(alert.body).toContain("- New clients: 2");
    expect(alert.body).toContain("- Free trials started: 1; trial clients who paid: 1");
    expect(alert.body).toContain(`- 2 panel jobs failed, waiting for you to retry: ${PUBLIC_URL}/admin/panel`);
    expect(alert.body).toContain(`- 1 message not sent: ${PUBLIC_URL}/admin/outbox?status=failed`);
    expect(alert.body).not.toContain("EFT order");
  });

  it("is not sent while off, nor before its hour", async () => {
    expect(await runOwnerDigest(t.app, at("2031-03-10T09:00:00+02:00"))).toBe(false);
    await setSetting(OWNER_ALERT_SETTINGS.digest, "on");
    await setSetting(OWNER_ALERT_SETTINGS.digestHour, "8");
    expect(await runOwnerDigest(t.app, at("2031-03-10T07:59:00+02:00"))).toBe(false);
    expect(await alertsFor(digestKey(YESTERDAY))).toHaveLength(0);
  });

  it("is queued once a day at its hour, however many runs ask, and the next day again", async () => {
    // On PostgreSQL the second run is a second app on its own connection pool, as a second process would be.
    const secondDb = onPostgres() && t.database.url ? await openDatabase({ databaseUrl: t.database.url, poolSize: 2 }) : null;
    const second = secondDb ? await createTestApp(config(), { database: secondDb }) : null;
    try {
      const runs = await Promise.all([
        runOwnerDigest(t.app, at("2031-03-10T08:00:00+02:00")),
        runOwnerDigest(second?.app ?? t.app, at("2031-03-10T08:00:30+02:00")),
      ]);
      expect(runs).toContain(true);
    } finally {
      await second?.close();
      await secondDb?.close();
    }
    expect(await runOwnerDigest(t.app, at("2031-03-10T21:00:00+02:00"))).toBe(false);
    const digests = await alertsFor(digestKey(YESTERDAY));
    expect(digests.map((d) => [d.channel, d.recipient])).toEqual([
      ["email", OWNER_EMAIL],
      ["whatsapp", OWNER_NUMBER],
    ]);
    expect(digests[0].body).toContain("- Payments: 2, R1,950 in total");
    expect(digests[0].body).toContain(`Your dashboard: ${PUBLIC_URL}/admin`);

    expect(await runOwnerDigest(t.app, at("2031-03-11T08:10:00+02:00"))).toBe(true);
    expect(await alertsFor(digestKey("2031-03-10"))).toHaveLength(2);
    const all = await t.app.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(like(outbox.dedupe_key, "owner-alert:digest:%"));
    expect(all[0].n).toBe(4);
  });
});
