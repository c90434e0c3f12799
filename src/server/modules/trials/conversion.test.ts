// Converting free trials (issue 27 item 4): the trial-ending and trial-ended messages carry the
// one-tap pay link for the package the customer chose at the order (no sign-in), and the owner's trial
// summary counts the trials started in the last 7 days that have paid since (with the rate).
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { capturedPayments, clients, outbox, packages, panelPackageMap, siteSettings, trials } from "@/server/db/schema";
import { runLifecycle } from "@/server/jobs/lifecycle";
import { runReminders } from "@/server/jobs/reminders";
import { TRIAL_PACKAGE_SETTING } from "@/server/lib/provisioning";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { codeSentTo } from "@/server/modules/client/test-helpers";
import { createMessagingTestApp, type MessagingTestApp } from "@/server/test-support/messaging-app";
import type { TrialSummary } from "@/shared/trial-schemas";

const PUBLIC_URL = "http://localhost:8080";
const DAY = 86_400_000;
let t: MessagingTestApp;
let fake: FakeXtreamPanel;
let admin: SignedIn;
let n = 0;

beforeAll(async () => {
  fake = await startFakeXtreamPanel();
  t = await createMessagingTestApp({
    config: { PUBLIC_URL, PANEL_API_URL: fake.url, PANEL_API_KEY: fake.apiKey, PANEL_STREAM_URL: "http://stream.example.net:8080" },
    build: { seed: true },
  });
  admin = await signInAdmin(t.app);
  await t.app.db.insert(siteSettings).values({ key: TRIAL_PACKAGE_SETTING, value: "9", is_active: false });
  // The packages a trial converts to are on sale: each mapped to a panel package (lib/sellable.ts).
  const ours = await t.app.db.select({ id: packages.id, months: packages.duration_months }).from(packages);
  await t.app.db.insert(panelPackageMap).values(ours.map((p) => ({ package_id: p.id, panel_package_id: p.months === 1 ? "1" : "3" })));
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** A free trial ordered for `packageName` from a network of its own, and started with its code. */
async function startedTrial(packageName: string) {
  n += 1;
  const digits = String(7_000_000 + n);
  const res = await t.app.inject({
    method: "POST",
    url: "/api/orders",
    payload: {
      name: `Naledi Convert${n}`,
      email: `convert.${n}@example.co.za`,
      whatsapp: `082 ${digits.slice(0, 3)} ${digits.slice(3)}`,
      package: packageName,
      duration: "free-trial",
      formType: "free-trial",
    },
    remoteAddress: `10.70.${n}.7`,
    headers: { origin: PUBLIC_URL },
  });
  expect(res.statusCode, res.body).toBe(202);
  const { trialId } = res.json();
  const verified = await t.app.inject({
    method: "POST",
    url: `/api/trials/${trialId}/verify`,
    // No Cloud API here: the code goes to the e-mail address they gave.
    payload: { code: await codeSentTo(t.app, `convert.${n}@example.co.za`) },
    headers: { origin: PUBLIC_URL },
  });
  expect(verified.statusCode, verified.body).toBe(201);
  const [trial] = await t.app.db.select().from(trials).where(eq(trials.id, trialId));
  const [client] = await t.app.db
    .select()
    .from(clients)
    .where(eq(clients.id, trial.client_id as string));
  return { trial, client };
}

const summary = async (): Promise<TrialSummary> => {
  const res = await admin.call({ method: "GET", url: "/api/admin/trials/summary" });
  expect(res.statusCode).toBe(200);
  return res.json();
};

describe("the trial's ending messages", () => {
  it("carry the one-tap pay link for the package chosen at the order, ending and ended, and it opens on that package", async () => {
    const [chosen] = await t.app.db.select().from(packages).where(eq(packages.name, "3 Months"));
    const { client } = await startedTrial("3 Months");
    expect(client).toMatchObject({ status: "trial", package_id: chosen.id, package_name: "3 Months" });
    const end = client.subscription_end as Date;
    const toClient = (kind: string) =>
      t.app.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.client_id, client.id), like(outbox.kind, kind)));
    const payLinkIn = (body: string) => /http:\/\/localhost:8080\/pay\/([A-Za-z0-9_-]{71})/.exec(body)?.[1];

    // a few hours before it ends (a 24-hour trial's one notice: a quarter of its term left), with the link to pay for what they chose
    await runReminders(t.app, new Date(end.getTime() - 5 * 3_600_000));
    const [ending] = await toClient("reminder-1d");
    expect(ending.body).toContain("Your free trial");
    const token = payLinkIn(ending.body);
    expect(token, ending.body).toBeDefined();
    expect(ending.body).toContain(`To keep watching, tap to pay for your 3 Months: ${PUBLIC_URL}/pay/${token}`);
    expect(ending.body).not.toMatch(/sign in|client portal/i);
    // the seed's bank details are placeholders: EFT is not offered, so the message does not offer it
    expect(ending.body).toContain("You can pay by card, and your login details stay the same.");
    expect(ending.template_vars).toMatchObject({ renew_link: `${PUBLIC_URL}/pay/${token}`, package: "3 Months" });
    // the link opens on the chosen package, for this customer, at today's price (the seed's special)
    const page = await t.app.inject({ method: "GET", url: `/api/pay-links/${token}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().data).toMatchObject({ packageName: "3 Months", price: 1450, firstName: "Naledi" });

    // once it has ended (the lifecycle job queues the notice as it ends the trial): a pay link too
    await runLifecycle(t.app, new Date(end.getTime() + 3_600_000));
    const [ended] = await toClient("reminder-expired");
    expect(ended.body).toContain("Your free trial");
    const endedToken = payLinkIn(ended.body);
    expect(ended.body).toContain(`To start watching again, tap to pay for your 3 Months: ${PUBLIC_URL}/pay/${endedToken}`);
    expect(ended.template_vars).toMatchObject({ renew_link: `${PUBLIC_URL}/pay/${endedToken}` });
    const paid = await t.app.inject({
      method: "POST",
      url: `/api/pay-links/${endedToken}/pay`,
      payload: { method: "card" },
      headers: { origin: PUBLIC_URL },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const [payment] = await t.app.db.select().from(capturedPayments).where(eq(capturedPayments.client_id, client.id));
    expect(payment).toMatchObject({ package_id: chosen.id, amount: 1450, status: "pending" });
  });

  it("a trial with no package chosen gets the portal's renew link, and says to choose a package there", async () => {
    const { client } = await startedTrial("");
    expect(client.package_id).toBeNull();
    await runReminders(t.app, new Date((client.subscription_end as Date).getTime() - 5 * 3_600_000));
    const [ending] = await t.app.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.client_id, client.id), eq(outbox.kind, "reminder-1d")));
    expect(ending.body).toContain(`To keep watching, choose a package in your client portal: ${PUBLIC_URL}/client?renew=1\n`);
  });
});

describe("the owner's trial summary", () => {
  it("counts the trials started in the last 7 days that have paid since, with the rate", async () => {
    const before = await summary();
    const paid = await startedTrial("Month to Month");
    const unpaid = await startedTrial("Month to Month");
    const refunded = await startedTrial("Month to Month");
    const payment = (client: { id: string }, status: string, at: Date, ref: string) =>
      t.app.db.insert(capturedPayments).values({
        provider: "manual",
        external_transaction_id: ref,
        amount: 450,
        package_name: "Month to Month",
        client_id: client.id,
        status,
        paid_at: at,
      });
    await payment(paid.client, "paid", new Date(), `CONV-${n}-1`);
    await payment(refunded.client, "refunded", new Date(), `CONV-${n}-2`);
    // a second payment by the same client is still one converted trial
    await payment(paid.client, "paid", new Date(), `CONV-${n}-3`);
    // a trial started 8 days ago that paid is outside the 7 days
    const old = await startedTrial("Month to Month");
    await t.app.db
      .update(trials)
      .set({ started_at: new Date(Date.now() - 8 * DAY), created_at: new Date(Date.now() - 8 * DAY) })
      .where(eq(trials.id, old.trial.id));
    await payment(old.client, "paid", new Date(), `CONV-${n}-4`);
    expect(unpaid.client.status).toBe("trial");

    const after = await summary();
    expect(after.last7Days.started).toBe(before.last7Days.started + 3);
    expect(after.last7Days.converted).toBe(before.last7Days.converted + 1);
    expect(after.last7Days.conversionRate).toBeCloseTo(after.last7Days.converted / after.last7Days.started, 6);
    expect(after.today.converted).toBe(before.today.converted + 1);
  });

  it("says no rate (null) for a stretch with no trial started", async () => {
    await t.app.db.update(trials).set({ started_at: new Date(Date.now() - 30 * DAY), created_at: new Date(Date.now() - 30 * DAY) });
    const empty = await summary();
    expect(empty.last7Days).toMatchObject({ started: 0, converted: 0, conversionRate: null });
  });
});
