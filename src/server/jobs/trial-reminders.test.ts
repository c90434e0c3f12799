// Issue 48 item 3: a free trial's notice fits a trial. A 24-hour trial used to get "your free trial
// ends soon" minutes after it began (the 1-day threshold was already reached), telling them to
// "pay for your Free Trial ... by card or EFT" with PayFast, Ozow and Yoco also on. Now a trial gets
// one notice a quarter of its term before the end (at most a day before, never in its first half),
// in a trial's words, naming every way to pay that is on; once per trial end. The shop here has
// the sandbox card checkout, PayFast, Ozow and Yoco (their keys; nothing calls them) and EFT.
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients, outbox, packages } from "@/server/db/schema";
import { makeClient } from "@/server/modules/client/test-helpers";
import { createTestApp, fillBankDetails, type TestApp } from "@/server/testing";
import { runLifecycle } from "./lifecycle";
import { runReminders, trialNoticeAt } from "./reminders";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(
    {
      PUBLIC_URL: "http://localhost:8080",
      PAYFAST_MERCHANT_ID: "10000100",
      PAYFAST_MERCHANT_KEY: "46f0cd694581a",
      PAYFAST_PASSPHRASE: "jt7NOE43FZPn",
      OZOW_SITE_CODE: "TSTSTE0001",
      OZOW_PRIVATE_KEY: "ozow-private-key",
      OZOW_API_KEY: "ozow-api-key",
      YOCO_SECRET_KEY: "sk_test_fake_secret",
      YOCO_WEBHOOK_SECRET: `whsec_${Buffer.from("yoco-webhook-signing-key-32-bytes").toString("base64")}`,
    },
    { seed: true },
  );
  await fillBankDetails(t.app);
});
afterAll(async () => {
  await t?.close();
});

/** One round of the server's jobs at `at`, as its timers run them: terms move on, then the reminders. */
async function runJobs(at: Date) {
  await runLifecycle(t.app, at);
  return runReminders(t.app, at);
}
const remindersOf = (clientId: string) =>
  t.app.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.client_id, clientId), like(outbox.kind, "reminder-%"), eq(outbox.channel, "email")))
    .orderBy(outbox.created_at);

describe("trialNoticeAt", () => {
  it("is a quarter of the term before the end, at most a day before, never in the first half", () => {
    const start = new Date("2026-11-28T10:00:00Z");
    const at = (ms: number) => new Date(start.getTime() + ms);
    // a 24-hour trial: 6 hours before its end
    expect(trialNoticeAt(start, at(24 * HOUR))).toEqual(at(18 * HOUR));
    // a 2-hour trial: half an hour before
    expect(trialNoticeAt(start, at(2 * HOUR))).toEqual(at(1.5 * HOUR));
    // a week's trial: a quarter would be 42 hours; a day before it is
    expect(trialNoticeAt(start, at(7 * DAY))).toEqual(at(6 * DAY));
    // however long, never before the middle of the term
    for (const hours of [1, 24, 48, 96, 168]) {
      expect(trialNoticeAt(start, at(hours * HOUR)).getTime()).toBeGreaterThanOrEqual(at((hours / 2) * HOUR).getTime());
    }
  });
});

describe("a 24-hour free trial", () => {
  it("gets no notice at its start and exactly one near its end, in a trial's words, naming every way to pay that is on", async () => {
    const start = new Date();
    const end = new Date(start.getTime() + 24 * HOUR);
    const client = await makeClient(t.app, {
      username: "trial.day",
      full_name: "Ayanda Trial",
      status: "trial",
      package_name: "Free Trial",
      subscription_start: start,
      subscription_end: end,
      communication_method: "email",
      email: "ayanda.trial@example.co.za",
    });

    // Minutes after it began, and through its first 18 hours: nothing.
    for (const hoursIn of [0, 0.1, 1, 12, 17.9]) {
      await runJobs(new Date(start.getTime() + hoursIn * HOUR));
      expect(await remindersOf(client.id)).toEqual([]);
    }

    // From 6 hours before its end: one notice, however many runs (and processes) follow.
    for (const hoursIn of [18, 18.25, 20, 23.9]) await runJobs(new Date(start.getTime() + hoursIn * HOUR));
    const notices = await remindersOf(client.id);
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    expect(notice).toMatchObject({ recipient: "ayanda.trial@example.co.za", kind: "reminder-1d" });
    expect(notice.subject).toBe("StreamDesk: your free trial ends soon");
    expect(notice.body).toContain("Your free trial with StreamDesk ends on");
    expect(notice.body).toContain("To keep watching, choose a package in your client portal: http://localhost:8080/client?renew=1");
    expect(notice.body).toContain("You can pay by card, PayFast, Ozow, Yoco or EFT, and your login details stay the same.");
    expect(notice.body).not.toContain("pay for your Free Trial");
    expect(notice.body).not.toMatch(/Free Trial/);

    // It ends: the trial-ended notice, and still only the one "ends soon".
    await runJobs(new Date(end.getTime() + 60_000));
    const [row] = await t.app.db.select({ status: clients.status }).from(clients).where(eq(clients.id, client.id));
    expect(row.status).toBe("expired");
    const told = await remindersOf(client.id);
    expect(told.map((m) => m.kind)).toEqual(["reminder-1d", "reminder-expired"]);
    expect(told[1].body).toContain("To start watching again, choose a package in your client portal");
  });

  it("with the package picked at the order on sale: one notice near its end, with the one tap to pay for that package", async () => {
    const [pkg] = await t.app.db.select({ id: packages.id }).from(packages).where(eq(packages.name, "3 Months"));
    const start = new Date();
    const end = new Date(start.getTime() + 24 * HOUR);
    const client = await makeClient(t.app, {
      username: "trial.picked",
      full_name: "Sizwe Picked",
      status: "trial",
      package_id: pkg.id,
      package_name: "3 Months",
      subscription_start: start,
      subscription_end: end,
      communication_method: "email",
      email: "sizwe.picked@example.co.za",
    });
    await runJobs(new Date(start.getTime() + 12 * HOUR));
    expect(await remindersOf(client.id)).toEqual([]);
    await runJobs(new Date(start.getTime() + 19 * HOUR));
    const [notice, ...more] = await remindersOf(client.id);
    expect(more).toEqual([]);
    expect(notice.body).toMatch(/To keep watching, tap to pay for your 3 Months: http:\/\/localhost:8080\/pay\/[A-Za-z0-9_-]{71}\n/);
    expect(notice.body).toContain("You can pay by card, PayFast, Ozow, Yoco or EFT");
  });
});
