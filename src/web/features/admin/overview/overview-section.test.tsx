// The overview's IPTV panel: the credits (a warning below the level from the settings), failed
// jobs and tasks, opening the panel page; and the alert when the panel refused lines for want of
// credits, saying how many wait.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminPanelView, AdminStats, ProvisioningJob } from "@/shared/business-schemas";
import type { TrialSummary } from "@/shared/trial-schemas";
import { cleanup, render, waitFor } from "@/web/testing/render";
import { adminKeys } from "../admin-keys";
import { renderWithClient, stubApi } from "../catalogue/components/test-helpers";
import { OverviewSection } from "./overview-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const STATS: AdminStats = {
  leads_today: 2,
  leads_week: 9,
  active_clients: 41,
  live_trials: 3,
  expiring_7d: 0,
  revenue_month: 14500,
  eft_awaiting: 0,
  outbox_failed: 0,
  whatsapp_to_send: 0,
  refunds_held: 0,
  leads_per_day: [],
  revenue_per_day: [],
};

const VIEW: AdminPanelView = {
  mode: "xtream",
  connected: true,
  credits: 3,
  low_credits: true,
  credit_warning: 10,
  packages: [],
  mapping: {},
  trial_package_id: null,
  error: null,
  stream_url: "http://tv.example.net:8080",
  stream_url_source: "environment",
  stream_url_setting: "",
  stream_url_default: "http://tv.example.net:8080",
  cache_minutes: 5,
  read_at: "2026-11-22T08:00:00.000Z",
};

const failed = (n: number, error_status: string): ProvisioningJob => ({
  id: `9a1e0000-0000-4000-8000-00000000000${n}`,
  client_id: `3f1b7f3a-1c55-4c36-9a1e-3f1f9b0c2d3${n}`,
  client_full_name: `Client ${n}`,
  client_username: `client${n}`,
  action: "create_line",
  package_name: "3 Months",
  trial: false,
  status: "failed",
  attempts: 1,
  next_attempt_at: "2026-11-22T08:00:00.000Z",
  error_status,
  last_error: "The panel says there are not enough credits. Top up your reseller credits, then retry.",
  panel_answer: "",
  instruction: "",
  needs_login: true,
  done_at: null,
  created_at: "2026-11-22T08:00:00.000Z",
});

function api(view: AdminPanelView, failedJobs: ProvisioningJob[], tasks: ProvisioningJob[] = [], stats: AdminStats = STATS) {
  return stubApi({
    "/api/admin/stats": { body: stats },
    "/api/payments/methods": { body: { data: { card: "ikhokha", eft: true } } },
    "/api/admin/panel": { body: view },
    "/api/admin/provisioning?status=failed": { body: { data: failedJobs } },
    "/api/admin/provisioning?status=task": { body: { data: tasks } },
  });
}

const page = () => document.body;
const byTestId = (id: string) => page().querySelector(`[data-testid=${id}]`);

beforeEach(() => vi.stubGlobal("EventSource", undefined));
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("the overview's tiles", () => {
  it("'Expiring in 7 days' opens the clients ending soonest first (issue 16 item 15)", async () => {
    api(VIEW, []);
    await renderWithClient(<OverviewSection />, "/admin");
    const link = await waitFor(() => {
      const found = [...document.querySelectorAll("a")].find((a) => a.textContent?.includes("Expiring in 7 days"));
      if (!found) throw new Error("no tile");
      return found;
    });
    expect(link.getAttribute("href")).toBe("/admin/clients?expiring=7&sort=subscription_end&dir=asc");
  });

  const tileNamed = (label: string) => [...document.querySelectorAll("a")].find((a) => a.textContent?.startsWith(label));

  it("'Refunds held' appears only while a provider's refund is unconfirmed, and opens those payments", async () => {
    api(VIEW, [], [], { ...STATS, refunds_held: 2 });
    await renderWithClient(<OverviewSection />, "/admin");
    const link = await waitFor(() => tileNamed("Refunds held") ?? Promise.reject(new Error("no tile")));
    expect(link.getAttribute("href")).toBe("/admin/payments?refund=held");
    expect(link.textContent).toBe("Refunds held2");
    await cleanup();

    api(VIEW, []);
    await renderWithClient(<OverviewSection />, "/admin");
    await waitFor(() => tileNamed("Expiring in 7 days") ?? Promise.reject(new Error("no tiles")));
    expect(tileNamed("Refunds held")).toBeUndefined();
  });
});

describe("the overview's panel", () => {
  it("raises the out-of-credits alert with the number of lines waiting, and shows the low credits and failed jobs", async () => {
    api(VIEW, [
      failed(1, "STATUS_INSUFFICIENT_CREDITS"),
      failed(2, "STATUS_INSUFFICIENT_CREDITS"),
      { ...failed(3, "TIMEOUT"), last_error: "The panel did not answer in time." },
    ]);
    await renderWithClient(<OverviewSection />, "/admin");
    const alert = await waitFor(() => {
      const found = byTestId("out-of-credits");
      if (!found) throw new Error("no alert");
      return found;
    });
    expect(alert.getAttribute("role")).toBe("alert");
    expect(alert.textContent).toContain("Your panel is out of credits: 2 lines are waiting. Top up, then retry.");
    expect(alert.querySelector('a[href="/admin/panel"]')).not.toBeNull();

    await waitFor(() => expect(byTestId("overview-failed-jobs")?.textContent).toBe("3"));
    expect(byTestId("overview-credits")?.textContent).toBe("3");
    expect(byTestId("panel-summary")?.textContent).toContain("Low: under 10");
    expect(byTestId("overview-tasks")?.textContent).toBe("0");
    expect(byTestId("panel-summary")?.getAttribute("href")).toBe("/admin/panel");
  });

  it("has no alert when no line waits for credits, and says a sandbox panel counts none", async () => {
    api({ ...VIEW, mode: "sandbox", credits: null, low_credits: false }, [failed(1, "NO_MAPPING")]);
    await renderWithClient(<OverviewSection />, "/admin");
    await waitFor(() => expect(byTestId("overview-failed-jobs")?.textContent).toBe("1"));
    // the panel's own read answers separately from the jobs'
    await waitFor(() => expect(byTestId("panel-summary")?.textContent).toContain("Sandbox"));
    expect(byTestId("panel-summary")?.textContent).toContain("Not counted");
    expect(byTestId("out-of-credits")).toBeNull();
  });
});

describe("the overview's WhatsApp tile", () => {
  it("counts the messages to answer and opens the inbox (issue 26)", async () => {
    const requests = stubApi({
      "/api/admin/stats": { body: STATS },
      "/api/admin/panel": { body: VIEW },
      "/api/admin/provisioning?status=failed": { body: { data: [] } },
      "/api/admin/provisioning?status=task": { body: { data: [] } },
      "/api/admin/inbox/unread": { body: { data: { unread: 4 } } },
    });
    await renderWithClient(<OverviewSection />, "/admin");
    await waitFor(() => expect(byTestId("overview-inbox")?.textContent).toBe("WhatsApp messages to answer4"));
    const tile = byTestId("overview-inbox");
    expect(tile?.tagName).toBe("A");
    expect(tile?.getAttribute("href")).toBe("/admin/inbox");
    expect(tile?.className).toContain("border-special/50");
    expect(requests.some((r) => r.path === "/api/admin/inbox/unread")).toBe(true);
  });

  it("draws no eye when nothing waits", async () => {
    stubApi({ "/api/admin/stats": { body: STATS }, "/api/admin/inbox/unread": { body: { data: { unread: 0 } } } });
    await renderWithClient(<OverviewSection />, "/admin");
    await waitFor(() => expect(byTestId("overview-inbox")?.textContent).toBe("WhatsApp messages to answer0"));
    expect(byTestId("overview-inbox")?.className).not.toContain("border-special/50");
  });
});

describe("the overview's trial conversion tile (issue 27)", () => {
  const week = (started: number, converted: number) => ({
    asked: started + 2,
    started,
    converted,
    conversionRate: started ? converted / started : null,
    refused: {},
  });
  const summary = (started: number, converted: number): TrialSummary => ({
    mode: "instant",
    limits: { perNetwork: 2, dailyCap: 50, blockDisposable: true },
    today: week(0, 0),
    last7Days: week(started, converted),
  });

  it("shows the 7-day rate from the trials summary, the counts it comes from, and opens the live trials", async () => {
    const requests = stubApi({ "/api/admin/stats": { body: STATS }, "/api/admin/trials/summary": { body: summary(8, 3) } });
    await renderWithClient(<OverviewSection />, "/admin");
    await waitFor(() => expect(byTestId("overview-trial-conversion")?.textContent).toContain("38%"));
    const tile = byTestId("overview-trial-conversion");
    expect(tile?.textContent).toBe("Trials converted (7 days)38%3 of 8 started have paid.");
    expect(tile?.getAttribute("href")).toBe("/admin/clients?status=trial");
    expect(requests.filter((r) => r.path === "/api/admin/trials/summary")).toHaveLength(1);
  });

  it("shows no rate when no trial started in the 7 days, and says so", async () => {
    stubApi({ "/api/admin/stats": { body: STATS }, "/api/admin/trials/summary": { body: summary(0, 0) } });
    await renderWithClient(<OverviewSection />, "/admin");
    await waitFor(() =>
      expect(byTestId("overview-trial-conversion")?.textContent).toBe(
        "Trials converted (7 days)—No free trial started in the last 7 days.",
      ),
    );
  });

  it("says it could not be loaded (a dash, never zeros) when its read fails, and when a refresh fails after numbers were shown", async () => {
    let answer: { status: number; body: unknown } = {
      status: 500,
      body: { error: { code: "internal", message: "Something went wrong." } },
    };
    stubApi({ "/api/admin/stats": { body: STATS }, "/api/admin/trials/summary": () => answer });
    // no retries: the failure is what the tile shows at once
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Number.POSITIVE_INFINITY } } });
    await render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={["/admin"]}>
          <OverviewSection />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const tileText = () => byTestId("overview-trial-conversion")?.textContent;
    await waitFor(() => expect(tileText()).toBe("Trials converted (7 days)—Could not be loaded."));
    expect(tileText()).not.toMatch(/0%|0 of 0/);

    // it loads once the read works, then a failed refresh does not leave the old rate up as if current
    answer = { status: 200, body: summary(8, 3) };
    await act(async () => {
      await client.refetchQueries({ queryKey: [...adminKeys.stats, "trials"] });
    });
    await waitFor(() => expect(tileText()).toBe("Trials converted (7 days)38%3 of 8 started have paid."));
    answer = { status: 503, body: { error: { code: "unavailable", message: "The database is unavailable." } } };
    await act(async () => {
      await client.refetchQueries({ queryKey: [...adminKeys.stats, "trials"] });
    });
    await waitFor(() => expect(tileText()).toBe("Trials converted (7 days)—Could not be loaded."));
  });
});
