import { afterEach, describe, expect, it, vi } from "vitest";
import type { ComponentStatus, OverallStatus, StatusComponent, StatusDay, StatusResponse } from "@/shared/api";
import { cleanup, click, getByRoleName, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { dayLabel, formatUptime, uptimeOver } from "./status-format";
import { StatusPage } from "./status-page";

/** 90 days ending 22 Nov 2026, oldest first: the first 10 without data, one day down. */
function history(): StatusDay[] {
  const end = Date.parse("2026-11-22T00:00:00Z");
  return Array.from({ length: 90 }, (_, i) => {
    const date = new Date(end - (89 - i) * 86_400_000).toISOString().slice(0, 10);
    if (i < 10) return { date, status: null, uptime: null };
    if (i === 50) return { date, status: "down" as const, uptime: 0.75 };
    return { date, status: "operational" as const, uptime: 1 };
  });
}

function component(key: string, name: string, status: ComponentStatus): StatusComponent {
  return {
    id: `id-${key}`,
    key,
    name,
    description: `${name} description`,
    status,
    message: status === "operational" ? "" : `${name} is not well`,
    last_checked_at: "2026-11-22T10:05:00.000Z",
    history: history(),
  };
}

function response(overall: OverallStatus, statuses: ComponentStatus[] = ["operational", "operational"]): StatusResponse {
  const components = [component("streaming", "Streaming service", statuses[0]), component("payments", "Payments", statuses[1])];
  return {
    overall,
    data: components.map((c) => ({ key: c.key, status: c.status })),
    components,
    incidents: [
      {
        id: "old",
        title: "Payments were slow",
        body: "Fixed.",
        impact: "minor",
        status: "resolved",
        component_keys: ["payments"],
        started_at: "2026-11-18T08:00:00.000Z",
        resolved_at: "2026-11-18T09:00:00.000Z",
      },
      {
        id: "now",
        title: "Some channels buffer",
        body: "We're on it.",
        impact: "major",
        status: "investigating",
        component_keys: ["streaming"],
        started_at: "2026-11-22T09:00:00.000Z",
        resolved_at: null,
      },
    ],
    maintenance: [],
    checked_at: "2026-11-22T10:05:00.000Z",
  };
}

async function renderStatus(body: StatusResponse, extra: Parameters<typeof stubFetch>[0] = {}) {
  const stub = stubFetch({ "/status": { body }, ...extra });
  vi.stubGlobal("fetch", stub.fetch);
  const { rendered } = renderRoutes([{ path: "/status", element: <StatusPage /> }], "/status");
  const r = await rendered;
  await waitFor(() => expect(r.container.querySelector("[data-overall]")).toBeTruthy());
  return { ...r, calls: stub.calls };
}

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("status wording and numbers", () => {
  it("labels a day with its date, status and uptime, and a day without checks as no data", () => {
    expect(dayLabel({ date: "2026-11-22", status: "operational", uptime: 1 })).toBe("22 Nov 2026: Operational, 100% uptime");
    expect(dayLabel({ date: "2026-09-03", status: "degraded", uptime: 0.95833 })).toBe("3 Sep 2026: Degraded performance, 95.83% uptime");
    expect(dayLabel({ date: "2026-01-01", status: null, uptime: null })).toBe("1 Jan 2026: No data");
  });

  it("never rounds an imperfect uptime up to 100%, and averages only the days with data", () => {
    expect(formatUptime(0.99999)).toBe("99.99%");
    expect(formatUptime(1)).toBe("100%");
    expect(formatUptime(0.5)).toBe("50%");
    expect(uptimeOver(history())).toBeCloseTo((79 + 0.75) / 80, 10);
    expect(uptimeOver([{ date: "2026-11-22", status: null, uptime: null }])).toBeNull();
  });
});

describe("StatusPage", () => {
  it.each([
    ["stable", "All systems operational"],
    ["maintenance", "Some services are under maintenance"],
    ["down", "Some services are down"],
  ] as const)("the banner words the API's overall %s as '%s'", async (overall, title) => {
    const { container } = await renderStatus(response(overall));
    const banner = container.querySelector(`[data-overall="${overall}"]`);
    expect(banner?.querySelector("h2")?.textContent).toBe(title);
    expect(container.querySelector("h1")?.textContent).toBe("Service status");
    expect(container.querySelectorAll("h1")).toHaveLength(1);
  });

  it("falls back to spec §4's rule on the entries when the API sends no overall", async () => {
    const body = response("stable", ["maintenance", "down"]);
    const { container } = await renderStatus({ ...body, overall: undefined as unknown as OverallStatus });
    expect(container.querySelector("[data-overall]")?.getAttribute("data-overall")).toBe("down");
  });

  it("draws 90 day bars per component, grey without data, each labelled with date, status and uptime", async () => {
    const { container } = await renderStatus(response("down", ["down", "operational"]));
    const cards = container.querySelectorAll("[data-component]");
    expect(cards).toHaveLength(2);
    for (const card of cards) {
      const bars = card.querySelectorAll("ol > li");
      expect(bars).toHaveLength(90);
      expect(card.querySelectorAll('li[data-status="none"].bg-line-strong')).toHaveLength(10);
      expect(card.querySelectorAll('li[data-status="down"].bg-bad')).toHaveLength(1);
      expect(card.querySelectorAll('li[data-status="operational"].bg-ok')).toHaveLength(79);
      const last = bars[89] as HTMLElement;
      expect(last.textContent).toBe("22 Nov 2026: Operational, 100% uptime");
      expect(last.getAttribute("title")).toBe("22 Nov 2026: Operational, 100% uptime");
      expect(bars[0].textContent).toMatch(/: No data$/);
      expect(bars[50].textContent).toMatch(/: Down, 75% uptime$/);
      // one tab stop per row
      expect(card.querySelectorAll('ol > li[tabindex="0"]')).toHaveLength(1);
    }
    const streaming = container.querySelector('[data-component="streaming"]') as HTMLElement;
    expect(streaming.textContent).toContain("Streaming service is not well");
    expect(streaming.textContent).toContain("99.68% uptime over 90 days");
    expect(streaming.textContent).toContain("Last check 22 Nov 2026, 12:05 SAST");
  });

  it("lists open incidents before resolved ones", async () => {
    const { container } = await renderStatus(response("stable"));
    const incidents = [...container.querySelectorAll("[data-incident]")].map((li) => li.getAttribute("data-incident"));
    expect(incidents).toEqual(["open", "resolved"]);
    expect(container.querySelector('[data-incident="open"]')?.textContent).toContain("AffectsStreaming service");
  });

  it("shows scheduled maintenance, in progress before upcoming, with SAST times and the services it affects", async () => {
    const hour = 60 * 60 * 1000;
    const body = response("maintenance", ["maintenance", "operational"]);
    body.maintenance = [
      {
        id: "later",
        title: "Payment provider upgrade",
        body: "Card payments pause for a few minutes.",
        status: "scheduled",
        component_keys: ["payments"],
        starts_at: "2030-03-01T23:00:00.000Z",
        ends_at: "2030-03-02T01:00:00.000Z",
        resolved_at: null,
      },
      {
        id: "now",
        title: "Streaming server move",
        body: "",
        status: "in_progress",
        component_keys: ["streaming"],
        starts_at: new Date(Date.now() - hour).toISOString(),
        ends_at: new Date(Date.now() + hour).toISOString(),
        resolved_at: null,
      },
    ];
    const { container } = await renderStatus(body);
    const section = container.querySelector('section[aria-labelledby="maintenance-heading"]') as HTMLElement;
    expect(section.querySelector("h2")?.textContent).toBe("Scheduled maintenance");
    const items = [...section.querySelectorAll("[data-maintenance]")];
    expect(items.map((li) => li.getAttribute("data-maintenance"))).toEqual(["in_progress", "upcoming"]);
    expect(items[0].textContent).toContain("In progress");
    expect(items[0].textContent).toContain("AffectsStreaming service");
    expect(items[1].textContent).toContain("Upcoming");
    expect(items[1].textContent).toContain("Starts2 Mar 2030, 01:00 SAST");
    expect(items[1].textContent).toContain("Ends2 Mar 2030, 03:00 SAST");
    expect(items[1].textContent).toContain("AffectsPayments");
    // the component under maintenance reads so, not "Down"
    expect(container.querySelector('[data-component="streaming"]')?.textContent).toContain("Under maintenance");
  });

  it("shows no maintenance section when none is planned", async () => {
    const { container } = await renderStatus(response("stable"));
    expect(container.textContent).not.toContain("Scheduled maintenance");
  });

  it("Check now posts to /api/status/check and refetches the status 2 s later", async () => {
    const { container, calls } = await renderStatus(response("stable"), {
      "/status/check": { body: { success: true, ran: true, checked_at: "2026-11-22T10:30:00.000Z" } },
    });
    const statusReads = () => calls.filter((c) => c === "/status").length;
    const before = statusReads();
    await click(getByRoleName(container, "button", "Check now"));
    await waitFor(() => expect(calls).toContain("/status/check"));
    expect(statusReads()).toBe(before);
    await waitFor(() => expect(statusReads()).toBe(before + 1), 4000);
    await waitFor(() => expect(container.textContent).toContain("Health check last ran 22 Nov 2026, 12:30 SAST."));
  });
});
