// Instant free trials (issue 27): the request's limits are checked again when the code is entered,
// so a limit reached (or switched on) between the request and the verify still holds — the same
// refusal in the same words, counted in trial_refusals, and nothing made: no client, no line, the
// trial not started and the code not used up (it works once the limit allows).
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeXtreamPanel, startFakeXtreamPanel } from "@/server/adapters/panel/fake-xtream";
import { clients, provisioningJobs, siteSettings, trialRefusals, trials } from "@/server/db/schema";
import { loadBusiness } from "@/server/lib/business";
import { TRIAL_PACKAGE_SETTING } from "@/server/lib/provisioning";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { codeSentTo } from "@/server/modules/client/test-helpers";
import { createMessagingTestApp, type MessagingTestApp } from "@/server/test-support/messaging-app";
import { eventually } from "@/server/testing";
import { TRIAL_SETTINGS } from "@/shared/trial-schemas";
import { TRIAL_LIMIT_MESSAGES } from "./limits";

const PUBLIC_URL = "http://localhost:8080";
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
  await setSetting(TRIAL_SETTINGS.perNetwork, "2");
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

async function setSetting(key: string, value: string) {
  const res = await admin.call({ method: "POST", url: "/api/admin/settings", payload: { key, value } });
  expect([200, 201], res.body).toContain(res.statusCode);
  await eventually(async () => expect((await loadBusiness(t.app)).settings[key] ?? "").toBe(value));
}

function person(overrides: Record<string, string> = {}) {
  n += 1;
  const digits = String(6_000_000 + n).padStart(7, "0");
  return {
    name: `Verify Person ${n}`,
    email: `verify.${n}@example.co.za`,
    whatsapp: `082 ${digits.slice(0, 3)} ${digits.slice(3)}`,
    stored: `2782${digits}`,
    ip: `10.60.${n}.7`,
    ...overrides,
  };
}
type Person = ReturnType<typeof person>;

async function ordered(p: Person): Promise<{ trialId: string; code: string }> {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/orders",
    payload: { name: p.name, email: p.email, whatsapp: p.whatsapp, duration: "free-trial", formType: "free-trial" },
    remoteAddress: p.ip,
    headers: { origin: PUBLIC_URL },
  });
  expect(res.statusCode, res.body).toBe(202);
  return { trialId: res.json().trialId, code: await codeSentTo(t.app, p.email) };
}
const verify = (trialId: string, code: string) =>
  t.app.inject({ method: "POST", url: `/api/trials/${trialId}/verify`, payload: { code }, headers: { origin: PUBLIC_URL } });
const refusals = async (reason: string) => (await t.app.db.select().from(trialRefusals).where(eq(trialRefusals.reason, reason))).length;

const trialJobs = async () => (await t.app.db.select().from(provisioningJobs).where(eq(provisioningJobs.trial, true))).length;

async function nothingMade(p: Person, trialId: string, jobsBefore: number) {
  expect(await t.app.db.select().from(clients).where(eq(clients.whatsapp, p.stored))).toEqual([]);
  const [trial] = await t.app.db.select().from(trials).where(eq(trials.id, trialId));
  expect(trial).toMatchObject({ started_at: null, client_id: null });
  expect(await trialJobs()).toBe(jobsBefore);
}

describe("the limits again at verify", () => {
  it("per network: a trial asked for earlier is refused once its network has started today's trials (409, counted), nothing made", async () => {
    const early = person({ ip: "203.0.113.5" });
    const asked = await ordered(early);
    // asked for first; meanwhile two others from the same /24 asked for theirs and started them
    for (const ip of ["203.0.113.77", "203.0.113.201"]) {
      const other = await ordered(person({ ip }));
      expect((await verify(other.trialId, other.code)).statusCode).toBe(201);
    }
    const before = await refusals("network");
    const jobs = await trialJobs();

    const res = await verify(asked.trialId, asked.code);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({ code: "trial_limit", message: TRIAL_LIMIT_MESSAGES.network });
    expect(await refusals("network")).toBe(before + 1);
    await nothingMade(early, asked.trialId, jobs);

    // the code was not used up: once the owner allows more, it starts the trial
    await setSetting(TRIAL_SETTINGS.perNetwork, "3");
    expect((await verify(asked.trialId, asked.code)).statusCode).toBe(201);
    await setSetting(TRIAL_SETTINGS.perNetwork, "2");
  });

  it("per network: requests not started are not counted against it, nor a trial started on another network", async () => {
    const own = await ordered(person({ ip: "198.51.100.9" }));
    await ordered(person({ ip: "198.51.100.10" }));
    await ordered(person({ ip: "198.51.100.11" }));
    const elsewhere = await ordered(person({ ip: "198.51.101.10" }));
    expect((await verify(elsewhere.trialId, elsewhere.code)).statusCode).toBe(201);
    const next = await ordered(person({ ip: "198.51.101.11" }));
    expect((await verify(next.trialId, next.code)).statusCode).toBe(201);
    expect((await verify(own.trialId, own.code)).statusCode).toBe(201);
  });

  it("a throwaway address, once the owner blocks them, is refused at verify in the order's words (400 on email, counted), nothing made", async () => {
    await setSetting(TRIAL_SETTINGS.disposable, "off");
    const throwaway = person({ email: "someone@mailinator.com" });
    const asked = await ordered(throwaway);
    await setSetting(TRIAL_SETTINGS.disposable, "on");
    const before = await refusals("disposable-email");
    const jobs = await trialJobs();

    const res = await verify(asked.trialId, asked.code);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toEqual({ email: TRIAL_LIMIT_MESSAGES["disposable-email"] });
    expect(await refusals("disposable-email")).toBe(before + 1);
    await nothingMade(throwaway, asked.trialId, jobs);
  });
});
