// GET /api/trial-availability: the free-trial buttons ask it before anyone fills in the form,
// and it answers from the same blackout days the order's own check refuses a trial on.
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { trialBlackoutDays } from "@/server/db/schema";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import type { TrialAvailability } from "@/shared/api";
import { saDay } from "@/shared/dates";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_WRITE_LIMIT_PER_MIN: 100_000 });
});
afterAll(async () => {
  await t?.close();
});
afterEach(async () => {
  vi.useRealTimers();
  await t.app.db.delete(trialBlackoutDays);
});

const read = async () => {
  const res = await t.app.inject({ method: "GET", url: "/api/trial-availability" });
  expect(res.statusCode).toBe(200);
  expect(res.headers["cache-control"]).toBe("no-cache");
  return (res.json() as { data: TrialAvailability }).data;
};

const trialOrder = (n: number) => ({
  name: `Trial Person ${n}`,
  email: `trial${n}@example.co.za`,
  whatsapp: `083 444 ${String(1000 + n)}`,
  duration: "free-trial",
  formType: "free-trial",
});

describe("GET /api/trial-availability", () => {
  it("says a trial can start on an ordinary day", async () => {
    expect(await read()).toEqual({ available: true, reason: "", day: saDay(new Date()) });
  });

  it("says no on a blackout day, with the business's reason, and follows the day being added and removed", async () => {
    expect((await read()).available).toBe(true); // cached now
    const today = saDay(new Date());
    await t.app.db.insert(trialBlackoutDays).values({ day: today, reason: "  Springboks v All Blacks " });
    await eventually(async () => expect(await read()).toEqual({ available: false, reason: "Springboks v All Blacks", day: today }));

    // The order form's check agrees with what the buttons were told.
    const refused = await t.app.inject({ method: "POST", url: "/api/orders", payload: trialOrder(1) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe("trial_unavailable");

    await t.app.db.delete(trialBlackoutDays).where(eq(trialBlackoutDays.day, today));
    await eventually(async () => expect((await read()).available).toBe(true));
  });

  it("judges the day in Johannesburg, not UTC", async () => {
    await t.app.db.insert(trialBlackoutDays).values({ day: "2026-11-22", reason: "" });
    vi.useFakeTimers({ toFake: ["Date"] });
    // 21:30 UTC on 21 Nov is 23:30 in South Africa: still the 21st.
    vi.setSystemTime(new Date("2026-11-21T21:30:00Z"));
    expect(await read()).toEqual({ available: true, reason: "", day: "2026-11-21" });
    // 22:30 UTC is 00:30 on the 22nd there: the blackout day.
    vi.setSystemTime(new Date("2026-11-21T22:30:00Z"));
    expect(await read()).toEqual({ available: false, reason: "", day: "2026-11-22" });
  });

  it("ignores query parameters", async () => {
    const res = await t.app.inject({ method: "GET", url: "/api/trial-availability?day=2020-01-01&x=1" });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.day).toBe(saDay(new Date()));
  });
});
