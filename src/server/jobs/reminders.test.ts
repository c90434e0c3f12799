// Expiry reminders: one message per threshold per subscription end, on the preferred channel
// (the other when it is missing), with the renew link. The statuses are the lifecycle job's:
// these tests run it first, as the server's timers do (every minute, before the reminders).
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "@/server/auth/passwords";
import { auditLog, clients, outbox, reminderLog, siteSettings } from "@/server/db/schema";
import { signInAdmin } from "@/server/modules/admin-business/test-admin";
import { secondProcess, startTogether } from "@/server/test-support/race";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { formatDate, formatDateTime } from "@/shared/dates";
import { REMINDER_DAYS_MESSAGE } from "@/shared/lifecycle";
import { jobs } from ".";
import { runLifecycle } from "./lifecycle";
import { runReminders, thresholdsReached } from "./reminders";

/** One round of the server's jobs at `at`: terms move on (and their ends are told), then the reminders. */
async function runJobs(app: TestApp["app"], at: Date) {
  await runLifecycle(app, at);
  return runReminders(app, at);
}

const PUBLIC_URL = "http://localhost:8080";
const DAY = 86_400_000;
const HOUR = 3_600_000;

let t: TestApp;
let hash: string;
const ids: Record<string, string> = {};
let now: Date;

async function client(name: string, values: Partial<typeof clients.$inferInsert>) {
  const [row] = await t.app.db
    .insert(clients)
    .values({ username: name, full_name: `${name} Tester`, password_hash: hash, package_name: "3 Months", ...values })
    .returning({ id: clients.id });
  ids[name] = row.id;
}

/** The reminders queued for a client (not the e-mail copies the outbox adds to WhatsApp without the Cloud API). */
const messagesFor = (name: string) =>
  t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.client_id, ids[name]), sql`coalesce(${outbox.dedupe_key}, '') not like '%:email-copy'`))
    .orderBy(outbox.created_at);
async function setReminderDays(value: string) {
  await t.app.db
    .insert(siteSettings)
    .values({ key: "reminder_days", value })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value } });
  t.app.cache.clear();
}
const statusOf = async (name: string) => (await t.app.db.select({ s: clients.status }).from(clients).where(eq(clients.id, ids[name])))[0].s;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL }, { seed: true });
  // These scenarios walk a 7-day, 1-day and ended reminder; the shop's default also has 3 days
  // (reminder_days '7,3,1,0'): its own test at the end.
  await setReminderDays("7,1,0");
  hash = await hashPassword("Irrelevant password 1");
  now = new Date();
  await client("week", {
    status: "active",
    subscription_end: new Date(now.getTime() + 6 * DAY),
    whatsapp: "082 123 0001",
    email: "week@example.co.za",
  });
  await client("day", {
    status: "active",
    subscription_end: new Date(now.getTime() + 20 * HOUR),
    communication_method: "email",
    email: "day@example.co.za",
    whatsapp: "0821230002",
  });
  await client("ended", { status: "trial", subscription_end: new Date(now.getTime() - HOUR), whatsapp: "0821230003" });
  await client("far", { status: "active", subscription_end: new Date(now.getTime() + 30 * DAY), whatsapp: "0821230004" });
  await client("suspended", { status: "suspended", subscription_end: new Date(now.getTime() + 2 * DAY), whatsapp: "0821230005" });
  await client("nonumber", {
    status: "active",
    subscription_end: new Date(now.getTime() + 5 * DAY),
    communication_method: "whatsapp",
    email: "nonumber@example.co.za",
  });
  await client("stale", { status: "active", subscription_end: new Date(now.getTime() - 40 * DAY), whatsapp: "0821230006" });
});

afterAll(async () => {
  await t?.close();
});

describe("thresholdsReached", () => {
  it("lists the thresholds reached, most urgent first", () => {
    const at = new Date("2026-11-22T10:00:00Z");
    const end = (ms: number) => new Date(at.getTime() + ms);
    expect(thresholdsReached(end(8 * DAY), at)).toEqual([]);
    expect(thresholdsReached(end(7 * DAY), at)).toEqual(["7d"]);
    expect(thresholdsReached(end(3 * DAY + 1), at)).toEqual(["7d"]);
    expect(thresholdsReached(end(DAY + 1), at)).toEqual(["3d", "7d"]);
    expect(thresholdsReached(end(DAY), at)).toEqual(["1d", "3d", "7d"]);
    expect(thresholdsReached(end(0), at)).toEqual(["expired", "1d", "3d", "7d"]);
    // with other reminder days (the reminder_days setting)
    expect(thresholdsReached(end(DAY), at, [7, 1, 0])).toEqual(["1d", "7d"]);
    expect(thresholdsReached(end(2 * DAY), at, [14, 3])).toEqual(["3d", "14d"]);
    expect(thresholdsReached(end(0), at, [7, 3])).toEqual(["3d", "7d"]);
  });
});

describe("runReminders", () => {
  it("is one of the server's jobs, every 15 minutes", () => {
    expect(jobs.find((j) => j.name === "client-reminders")?.everyMs).toBe(15 * 60_000);
  });

  it("sends one message per client on the preferred channel, with the renew link and a person to reach", async () => {
    const first = await runJobs(t.app, now);
    // week, day and nonumber; the ended trial's notice came with the lifecycle job, not from here
    expect(first).toEqual({ queued: 3, expired: 1 });

    // No Cloud API here: the WhatsApp reminder waits for the owner, and its e-mail copy goes at once.
    await t.app.outbox.drain();
    const [week] = await messagesFor("week");
    expect(week).toMatchObject({ channel: "whatsapp", recipient: "27821230001", kind: "reminder-7d", status: "owner" });
    const [copy] = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `${week.dedupe_key}:email-copy`));
    expect(copy).toMatchObject({ channel: "email", recipient: "week@example.co.za", kind: "reminder-7d", body: week.body });
    expect(week.body).toContain(`${PUBLIC_URL}/client?renew=1`);
    expect(week.body).toContain("StreamDesk");
    expect(week.body).toMatch(/in 6 days/);
    // what a WhatsApp template may use outside the 24-hour window
    expect(week.template_vars).toMatchObject({ days: "6", package: "3 Months", renew_link: `${PUBLIC_URL}/client?renew=1` });
    expect(week.template_vars.end_date).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
    expect(week.body).toMatch(/Need a person\? WhatsApp \+27 82 123 4567/);

    const day = await messagesFor("day");
    expect(day).toHaveLength(1);
    expect(day[0]).toMatchObject({ channel: "email", recipient: "day@example.co.za", kind: "reminder-1d" });
    expect(day[0].subject).toMatch(/StreamDesk: your subscription ends soon/);

    const ended = await messagesFor("ended");
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ channel: "whatsapp", kind: "reminder-expired" });
    expect(ended[0].body).toMatch(/free trial/);
    expect(await statusOf("ended")).toBe("expired");

    // WhatsApp preferred but no number: e-mail instead.
    expect(await messagesFor("nonumber")).toMatchObject([{ channel: "email", recipient: "nonumber@example.co.za", kind: "reminder-7d" }]);

    expect(await messagesFor("far")).toHaveLength(0);
    expect(await messagesFor("suspended")).toHaveLength(0);
    // Ended weeks ago: expired by the lifecycle job, without a late message.
    expect(await messagesFor("stale")).toHaveLength(0);
    expect(await statusOf("stale")).toBe("expired");
  });

  it("sends nothing more when run again, even twice together (taking turns on PGlite's one connection)", async () => {
    const before = (await t.app.db.select().from(outbox)).length;
    const results = await Promise.all([runJobs(t.app, now), runJobs(t.app, now)]);
    expect(results.map((r) => r.queued)).toEqual([0, 0]);
    expect((await t.app.db.select().from(outbox)).length).toBe(before);
  });

  it("sends the next threshold when its time comes, and at the end says how long the grace period keeps them on", async () => {
    const fiveDaysOn = new Date(now.getTime() + 5 * DAY + HOUR);
    await runJobs(t.app, fiveDaysOn);
    expect((await messagesFor("week")).map((m) => m.kind)).toEqual(["reminder-7d", "reminder-1d"]);
    expect(await statusOf("week")).toBe("active");

    const afterEnd = new Date(now.getTime() + 6 * DAY + HOUR);
    await runJobs(t.app, afterEnd);
    const messages = await messagesFor("week");
    expect(messages.map((m) => m.kind)).toEqual(["reminder-7d", "reminder-1d", "reminder-expired"]);
    // A paid term ends into the grace days (3 by default): the service stays on meanwhile.
    expect(await statusOf("week")).toBe("grace");
    expect(messages[2].body).toContain("We've kept your service on until");
    const logged = await t.app.db.select().from(reminderLog).where(eq(reminderLog.client_id, ids.week));
    expect(logged.map((r) => r.threshold).sort()).toEqual(["1d", "7d", "expired"]);
  });

  it("starts over for a new subscription end (a renewal)", async () => {
    const newEnd = new Date(now.getTime() + 3 * DAY);
    await t.app.db.update(clients).set({ subscription_end: newEnd }).where(eq(clients.id, ids.far));
    await t.app.db
      .update(clients)
      .set({ status: "active", subscription_end: new Date(now.getTime() + 2 * DAY) })
      .where(eq(clients.id, ids.day));
    await runJobs(t.app, now);
    await runJobs(t.app, now);
    expect((await messagesFor("far")).map((m) => m.kind)).toEqual(["reminder-7d"]);
    // 'day' expired in the previous test's later clock; its renewed term gets its own 7-day reminder.
    expect((await messagesFor("day")).map((m) => m.kind)).toEqual(["reminder-1d", "reminder-expired", "reminder-7d"]);
    const rows = await t.app.db
      .select()
      .from(reminderLog)
      .where(and(eq(reminderLog.client_id, ids.day), inArray(reminderLog.threshold, ["7d"])));
    expect(rows.map((r) => r.subscription_end.getTime()).sort()).toEqual([now.getTime() + 20 * HOUR, now.getTime() + 2 * DAY]);
  });

  it("follows the reminder_days setting: with '7,3' a term gets its 3-day reminder and no 1-day or ended one", async () => {
    await setReminderDays("7,3");
    try {
      await client("setting", { status: "active", subscription_end: new Date(now.getTime() + 2 * DAY), whatsapp: "0821230009" });
      await runJobs(t.app, now);
      await runJobs(t.app, new Date(now.getTime() + 2 * DAY - HOUR));
      await runJobs(t.app, new Date(now.getTime() + 2 * DAY + HOUR));
      expect((await messagesFor("setting")).map((m) => m.kind)).toEqual(["reminder-3d"]);
    } finally {
      await setReminderDays("7,1,0");
    }
  });
});

describe("the ended notice comes with the end of the term (issue 25 item 6)", () => {
  const noticesFor = async (name: string) =>
    (await messagesFor(name)).filter((m) => m.kind === "reminder-expired" && m.dedupe_key?.startsWith("reminder:"));
  const termEndedAudit = async (name: string, end: Date) =>
    (
      await t.app.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.resource_id, ids[name]), eq(auditLog.action, "term-ended")))
    ).find((a) => (a.after as { cause_key?: string }).cause_key === `term-ended:${ids[name]}:${end.toISOString()}`);

  it("the lifecycle pass that ends a paid term queues the notice in its own transaction, before any reminders pass", async () => {
    const end = new Date(now.getTime() - 10 * 60_000);
    await client("ontime", { status: "active", subscription_end: end, whatsapp: "0821230011", full_name: "Ayanda Mthembu" });
    expect(await noticesFor("ontime")).toHaveLength(0);
    await runLifecycle(t.app, now);
    expect(await statusOf("ontime")).toBe("grace");
    const [notice] = await noticesFor("ontime");
    expect(notice).toMatchObject({
      channel: "whatsapp",
      recipient: "27821230011",
      dedupe_key: `reminder:${ids.ontime}:expired:${end.toISOString()}`,
    });
    expect(notice.body.startsWith("Hi Ayanda,\n")).toBe(true);
    expect(notice.body).toContain(`ended on ${formatDateTime(end)} (SAST)`);
    expect(notice.body).toContain("We've kept your service on until");
    expect(notice.body).not.toMatch(/e-?mail/i);
    // Its own subject, on the WhatsApp row too (an e-mail copy takes it).
    expect(notice.subject).toBe(`StreamDesk: your subscription ended on ${formatDate(end)}`);
    // The same transaction: now() is the transaction's time, the audit entry's and the message's alike.
    const audit = await termEndedAudit("ontime", end);
    expect(audit?.created_at.toISOString()).toBe(notice.created_at.toISOString());
    const logged = await t.app.db.select().from(reminderLog).where(eq(reminderLog.client_id, ids.ontime));
    expect(logged.map((r) => r.threshold)).toContain("expired");

    // The reminders pass after it, and the lifecycle pass again, send no second one.
    expect((await runReminders(t.app, now)).queued).toBe(0);
    await runJobs(t.app, new Date(now.getTime() + 15 * 60_000));
    expect(await noticesFor("ontime")).toHaveLength(1);
  });

  it("a reminders pass between the end and the lifecycle pass sends nothing and takes nothing: the notice still comes once, with the end", async () => {
    const end = new Date(now.getTime() - 60_000);
    await client("between", { status: "trial", subscription_end: end, whatsapp: "0821230012", email: "between@example.co.za" });
    await runReminders(t.app, now);
    expect(await noticesFor("between")).toHaveLength(0);
    await Promise.all([runLifecycle(t.app, now), runLifecycle(t.app, now)]);
    await runReminders(t.app, now);
    const notices = await noticesFor("between");
    expect(notices).toHaveLength(1);
    expect(await statusOf("between")).toBe("expired");
    // A trial's own words and subject; the e-mail copy the owner's queue adds takes that subject, not "your subscription".
    expect(notices[0].subject).toBe("StreamDesk: your free trial has ended");
    expect(notices[0].body).toContain("Your free trial with StreamDesk ended on");
    await t.app.outbox.drain();
    const [copy] = await t.app.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupe_key, `${notices[0].dedupe_key}:email-copy`));
    expect(copy).toMatchObject({ channel: "email", recipient: "between@example.co.za", subject: "StreamDesk: your free trial has ended" });
  });

  it("says it in the owner's subject and words when they edited the template", async () => {
    const admin = await signInAdmin(t.app);
    const saved = await admin.call({
      method: "PUT",
      url: "/api/admin/message-templates/reminder-expired",
      payload: { subject: "{{business}}: {{package}} over", body: "Hi {{name}}, it ended {{end_date}}. {{what_next}}" },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      const end = new Date(now.getTime() - 5 * 60_000);
      await client("owned", { status: "active", subscription_end: end, email: "owned@example.co.za", communication_method: "email" });
      await runLifecycle(t.app, now);
      const [notice] = await noticesFor("owned");
      expect(notice).toMatchObject({ channel: "email", subject: "StreamDesk: 3 Months over", status: "pending" });
      expect(notice.body).toContain(`it ended ${formatDate(end)}.`);
    } finally {
      await admin.call({ method: "DELETE", url: "/api/admin/message-templates/reminder-expired" });
    }
  });
});

describe("the reminder_days setting in the dashboard", () => {
  it("refuses a value the reminders job could not read, naming the field", async () => {
    const admin = await signInAdmin(t.app);
    const bad = await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: "reminder_days", value: "7,7,99" } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.value).toBe(REMINDER_DAYS_MESSAGE);
    const good = await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key: "reminder_days", value: "7,1,0" } });
    expect(good.statusCode).toBeLessThan(300);
  });
});

describe.runIf(onPostgres())(
  "PostgreSQL only (PGlite is one connection: nothing races there): the job on two processes at the same moment",
  () => {
    it("a reminder due is sent once when two processes run the job together; both runs answer, one queues it", async () => {
      const other = await secondProcess(t);
      try {
        await client("racing", { status: "active", subscription_end: new Date(now.getTime() + 6 * DAY + HOUR), whatsapp: "0821230099" });
        const before = (await t.app.db.select().from(outbox)).length;
        // each run's claim of the reminder (its reminder_log row) waits behind the lock, then both go
        const results = await startTogether(t.database.url as string, "LOCK TABLE reminder_log IN EXCLUSIVE MODE", 2, () =>
          Promise.all([runReminders(t.app, now), runReminders(other.app, now)]),
        );
        expect(results).toHaveLength(2);
        const queued = results.map((r) => r.queued);
        expect(queued.reduce((a, b) => a + b, 0)).toBe((await t.app.db.select().from(outbox)).length - before);
        const sent = await messagesFor("racing");
        expect(sent).toMatchObject([{ kind: "reminder-7d" }]);
        const logged = await t.app.db.select().from(reminderLog).where(eq(reminderLog.client_id, ids.racing));
        expect(logged).toHaveLength(1);
      } finally {
        await other.close();
      }
    });
  },
);
