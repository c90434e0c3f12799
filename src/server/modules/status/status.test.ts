import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { incidents, statusChecks, systemComponents } from "@/server/db/schema";
import { createTestApp, eventually, type TestApp } from "@/server/testing";
import type { StatusComponent, StatusResponse } from "@/shared/api";
import { saDay } from "@/shared/dates";
import { daysEnding, HISTORY_DAYS } from "./service";

let t: TestApp;
const get = (url: string) => t.app.inject({ method: "GET", url });
const status = async () => {
  const res = await get("/api/status");
  expect(res.statusCode).toBe(200);
  return res.json() as StatusResponse;
};
const DAY = 24 * 60 * 60 * 1000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs);

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
});
afterAll(async () => {
  await t?.close();
});

describe("status helpers", () => {
  it("lists days oldest first, across month and leap-year ends", () => {
    expect(daysEnding("2024-03-01", 3)).toEqual(["2024-02-28", "2024-02-29", "2024-03-01"]);
    expect(daysEnding("2025-01-01", 90)).toHaveLength(90);
    expect(daysEnding("2025-01-01", 90)[0]).toBe("2024-10-04");
  });
});

describe("GET /api/status", () => {
  it("answers stable with nothing to report", async () => {
    const res = await get("/api/status");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.json()).toEqual({ overall: "stable", data: [], components: [], incidents: [], maintenance: [], checked_at: null });
  });

  it("lists components by sort_order with current status, 90-day history and the overall rule", async () => {
    const days = daysEnding(saDay(new Date()), HISTORY_DAYS + 1);
    const today = days[HISTORY_DAYS];
    const yesterday = days[HISTORY_DAYS - 1];
    const threeDaysAgo = days[HISTORY_DAYS - 3];
    const first = days[1];
    const beforeWindow = days[0];

    const [streams, website] = await t.app.db
      .insert(systemComponents)
      .values([
        { key: "streams", name: "Streaming servers", sort_order: 2 },
        { key: "website", name: "Website", sort_order: 1, description: "The shop" },
        { key: "payments", name: "Card payments", sort_order: 3, status: "operational", maintenance: true, message: "Provider upgrade" },
      ])
      .returning();
    await t.app.db.insert(statusChecks).values([
      // today (Johannesburg): 00:30 local is still yesterday in UTC
      { component_id: website.id, status: "operational", created_at: new Date(`${yesterday}T22:30:00Z`) },
      { component_id: website.id, status: "operational", created_at: new Date(`${today}T08:00:00Z`) },
      { component_id: website.id, status: "degraded", created_at: new Date(`${today}T09:00:00Z`) },
      { component_id: website.id, status: "down", created_at: new Date(`${threeDaysAgo}T10:00:00Z`) },
      { component_id: website.id, status: "operational", created_at: new Date(`${threeDaysAgo}T11:00:00Z`) },
      // first day of the window starts at 00:00 Johannesburg; 23:59 the evening before is outside
      { component_id: website.id, status: "maintenance", created_at: new Date(`${beforeWindow}T22:00:00Z`) },
      { component_id: website.id, status: "down", created_at: new Date(`${beforeWindow}T21:59:00Z`) },
    ]);

    // the read cache drops the earlier answer once the change feed reports these writes (on
    // PostgreSQL a notification that arrives a moment after the commit)
    const body = await eventually(async () => {
      const answer = await status();
      expect(answer.components).toHaveLength(3);
      return answer;
    });
    expect(body.components.map((c) => c.key)).toEqual(["website", "streams", "payments"]);
    expect(body.data).toEqual([
      { key: "website", status: "operational" },
      { key: "streams", status: "operational" },
      { key: "payments", status: "maintenance" },
    ]);
    expect(body.overall).toBe("maintenance");
    expect(body.checked_at).toBe(new Date(`${today}T09:00:00Z`).toISOString());

    const site = body.components[0] as StatusComponent;
    expect(site).toMatchObject({ id: website.id, name: "Website", description: "The shop", last_checked_at: body.checked_at });
    expect(site.history).toHaveLength(HISTORY_DAYS);
    expect(site.history.map((d) => d.date)).toEqual(days.slice(1));
    const byDate = Object.fromEntries(site.history.map((d) => [d.date, d]));
    expect(byDate[today]).toEqual({ date: today, status: "degraded", uptime: 2 / 3 });
    expect(byDate[threeDaysAgo]).toEqual({ date: threeDaysAgo, status: "down", uptime: 0.5 });
    expect(byDate[first]).toEqual({ date: first, status: "maintenance", uptime: 0 });
    expect(byDate[yesterday]).toEqual({ date: yesterday, status: null, uptime: null });
    expect(site.history.filter((d) => d.status !== null)).toHaveLength(3);

    const stream = body.components[1] as StatusComponent;
    expect(stream.id).toBe(streams.id);
    expect(stream.last_checked_at).toBeNull();
    expect(stream.history.every((d) => d.status === null && d.uptime === null)).toBe(true);
    expect(body.components[2]).toMatchObject({ status: "maintenance", message: "Provider upgrade" });
  });

  it("follows changes: a new check, a component going down, maintenance ending", async () => {
    await status();
    const [website] = await t.app.db.select().from(systemComponents).where(eq(systemComponents.key, "website"));
    await t.app.db.insert(statusChecks).values({ component_id: website.id, status: "down", created_at: at(-1000) });
    await eventually(async () => {
      const site = (await status()).components.find((c) => c.key === "website");
      expect(site?.history.at(-1)?.status).toBe("down");
    });

    await t.app.db.update(systemComponents).set({ status: "down" }).where(eq(systemComponents.key, "streams"));
    await eventually(async () => expect((await status()).overall).toBe("down"));

    await t.app.db.update(systemComponents).set({ status: "operational" }).where(eq(systemComponents.key, "streams"));
    await t.app.db.update(systemComponents).set({ maintenance: false }).where(eq(systemComponents.key, "payments"));
    await eventually(async () => {
      const body = await status();
      expect(body.overall).toBe("stable");
      expect(body.data.find((d) => d.key === "payments")?.status).toBe("operational");
    });
  });

  it("lists unresolved incidents and those resolved in the last 14 days, newest first", async () => {
    await t.app.db.insert(incidents).values([
      { title: "ongoing", started_at: at(-2 * DAY), component_keys: ["streams"] },
      { title: "fixed recently", status: "resolved", started_at: at(-4 * DAY), resolved_at: at(-3 * DAY) },
      { title: "fixed long ago", status: "resolved", started_at: at(-21 * DAY), resolved_at: at(-20 * DAY) },
      { title: "just now", impact: "major", started_at: at(-60 * 60 * 1000) },
    ]);
    await eventually(async () => {
      const body = await status();
      expect(body.incidents.map((i) => i.title)).toEqual(["just now", "ongoing", "fixed recently"]);
      expect(body.incidents[1]).toMatchObject({ component_keys: ["streams"], resolved_at: null, impact: "minor" });
      expect(body.incidents[2].resolved_at).toMatch(/Z$/);
    });
  });

  it("ignores unknown and hostile query parameters", async () => {
    for (const query of ["?x=1", "?days=%27%3B--&days=2", `?q=${"q".repeat(3000)}`, "?%00=%00"]) {
      expect((await get(`/api/status${query}`)).statusCode).toBe(200);
    }
  });
});
