// The panel page: the mode and connection in plain words, credits against the warning level,
// the package mapping saved with the server's refusal on its row, a failed job with the panel's
// words, its raw answer and Retry, and a manual-mode task completed with the pasted login.

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type AdminPanelView, PANEL_STREAM_URL_NEEDED, type PanelDriftView, type ProvisioningJob } from "@/shared/business-schemas";
import { CACHE_MINUTES_MESSAGE, STREAM_URL_MESSAGE } from "@/shared/panel-settings";
import { toast } from "@/web/lib/toast";
import { cleanup, click, getByRoleName, waitFor } from "@/web/testing/render";
import { fieldError, inputByLabel, renderWithClient, shimSelectDefaults, stubApi, typeInto } from "../catalogue/components/test-helpers";
import { PASTE_PASSWORD_MESSAGE, PASTE_USERNAME_MESSAGE } from "./complete-task-form";
import { PanelSection } from "./panel-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
shimSelectDefaults();

const MONTH = "6f1b7f3a-1c55-4c36-9a1e-3f1f9b0c2d11";
const THREE = "0b0b7f3a-1c55-4c36-9a1e-3f1f9b0c2d22";
const CLIENT = "3f1b7f3a-1c55-4c36-9a1e-3f1f9b0c2d33";

const pkg = (id: string, name: string, months: number, price: number) => ({
  id,
  name,
  price,
  price_today: price,
  duration: name,
  duration_months: months,
  features: [],
  description: "",
  is_featured: false,
  sort_order: months,
  is_active: true,
  created_at: "2026-11-01T10:00:00.000Z",
  updated_at: "2026-11-01T10:00:00.000Z",
});
const PACKAGES = [pkg(MONTH, "Month to Month", 1, 200), pkg(THREE, "3 Months", 3, 1650)];

const panelPackage = (id: string, name: string, months: number, isTrial = false) => ({
  id,
  name,
  is_trial: isTrial,
  official_duration: months,
  official_duration_in: "months",
  trial_duration: isTrial ? 24 : 0,
  trial_duration_in: "hours",
  official_credits: months,
  max_connections: 1,
});

const VIEW: AdminPanelView = {
  mode: "xtream",
  connected: true,
  credits: 4,
  low_credits: true,
  credit_warning: 10,
  packages: [panelPackage("11", "Full 1M", 1), panelPackage("13", "Full 3M", 3), panelPackage("90", "Trial 24h", 0, true)],
  mapping: { [MONTH]: "11" },
  trial_package_id: "90",
  error: null,
  stream_url: "http://tv.example.net:8080",
  stream_url_source: "environment",
  stream_url_setting: "",
  stream_url_default: "http://tv.example.net:8080",
  cache_minutes: 5,
  read_at: "2026-11-22T08:00:00.000Z",
};

const job = (overrides: Partial<ProvisioningJob>): ProvisioningJob => ({
  id: "9a1e0000-0000-4000-8000-000000000001",
  client_id: CLIENT,
  client_full_name: "Nomsa Dlamini",
  client_username: "nomsa.d",
  action: "create_line",
  package_name: "3 Months",
  trial: false,
  status: "done",
  attempts: 1,
  next_attempt_at: "2026-11-22T08:00:00.000Z",
  error_status: "",
  last_error: "",
  panel_answer: "",
  instruction: "",
  needs_login: overrides.action === undefined || overrides.action === "create_line",
  done_at: "2026-11-22T08:00:01.000Z",
  created_at: "2026-11-22T08:00:00.000Z",
  ...overrides,
});

const FAILED = job({
  id: "9a1e0000-0000-4000-8000-000000000002",
  status: "failed",
  attempts: 1,
  done_at: null,
  error_status: "STATUS_INSUFFICIENT_CREDITS",
  last_error: "The panel says there are not enough credits. Top up your reseller credits, then retry.",
  panel_answer: '{"status":"STATUS_INSUFFICIENT_CREDITS","api_key":"***"}',
});
const TASK = job({
  id: "9a1e0000-0000-4000-8000-000000000003",
  status: "task",
  done_at: null,
  client_full_name: "Sipho Ndlovu",
  instruction: "Create a 3 Months line for Sipho Ndlovu (WhatsApp +27821234567) on your panel, then paste its username and password here.",
});
const DONE = job({ client_full_name: "Thandi Nkosi" });

type Answer = { status?: number; body: unknown };

function api(overrides: Record<string, Answer | ((body: unknown) => Answer)> = {}, jobs = [TASK, FAILED, DONE]) {
  return stubApi({
    "/api/admin/panel": { body: VIEW },
    "/api/admin/packages": { body: { data: PACKAGES } },
    "/api/admin/provisioning": { body: { data: jobs } },
    "/api/admin/provisioning?status=failed": { body: { data: jobs.filter((j) => j.status === "failed") } },
    "/api/admin/provisioning?status=task": { body: { data: jobs.filter((j) => j.status === "task") } },
    "/api/admin/panel/drift": { body: { data: [] } },
    ...overrides,
  });
}

const page = () => document.body;
const renderPage = () => renderWithClient(<PanelSection />, "/admin/panel");
const card = (label: string) =>
  waitFor(() => {
    const found = page().querySelector<HTMLElement>(`article[aria-label="${label}"]`);
    if (!found) throw new Error(`no card "${label}"`);
    return found;
  });

beforeEach(() => vi.stubGlobal("EventSource", undefined));
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});

describe("the panel page", () => {
  it("shows the mode, a connection the panel refused in its own words, and credits below the warning level", async () => {
    api({
      "/api/admin/panel": {
        body: { ...VIEW, connected: false, credits: null, low_credits: false, error: "The panel refused the API key." },
      },
    });
    await renderPage();
    const status = await waitFor(() => {
      const found = page().querySelector<HTMLElement>("[data-testid=panel-status]");
      if (!found) throw new Error("no status");
      return found;
    });
    expect(status.textContent).toContain("Your panel (Xtream API)");
    expect(status.querySelector("[data-testid=panel-connection]")?.textContent).toBe("Not connected");
    expect(status.querySelector("[role=alert]")?.textContent).toBe("The panel refused the API key.");
    expect(status.querySelector("[data-testid=panel-credits]")?.textContent).toBe("—");
  });

  it("warns when credits are low, and raises the out-of-credits alert for the lines waiting", async () => {
    api();
    await renderPage();
    await waitFor(() => expect(page().querySelector("[data-testid=panel-credits]")?.textContent).toBe("4"));
    expect(page().querySelector("[aria-label=Credits]")?.textContent).toContain("Low: below your warning level of 10.");
    await waitFor(() =>
      expect(page().querySelector("[data-testid=out-of-credits]")?.textContent).toBe(
        "Your panel is out of credits: 1 line is waiting. Top up, then retry.",
      ),
    );
  });

  it("saves the mapping, and puts the panel's refusal on the row it names", async () => {
    let refuse = true;
    const sent = api({
      "PUT /api/admin/panel/mapping": (body) =>
        refuse
          ? {
              status: 400,
              body: {
                error: {
                  code: "validation",
                  message: "The panel has no such package.",
                  fields: { [`packages.${THREE}`]: "The panel has no such package." },
                },
              },
            }
          : { body: { ...VIEW, mapping: (body as { packages: Record<string, string> }).packages } },
    });
    await renderPage();
    const form = await waitFor(() => {
      const found = page().querySelector<HTMLFormElement>("form[aria-label='Package mapping']");
      if (!found) throw new Error("no mapping form");
      return found;
    });
    const month = rowSelect(form, "Month to Month");
    const three = rowSelect(form, "3 Months");
    const trial = rowSelect(form, "Free trials");
    // what is saved now
    expect(month.value).toBe("11");
    expect(three.value).toBe("");
    expect(trial.value).toBe("90");
    const save = getByRoleName(form, "button", "Save mapping") as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    await typeInto(three, "13");
    await click(save);
    await waitFor(() => expect(fieldError(three)).toBe("The panel has no such package."));
    expect(three.getAttribute("aria-invalid")).toBe("true");
    expect(fieldError(month)).toBeNull();
    expect(sent.filter((r) => r.method === "PUT").map((r) => r.body)).toEqual([
      { packages: { [MONTH]: "11", [THREE]: "13" }, trial: "90" },
    ]);

    refuse = false;
    await click(save);
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Package mapping saved", expect.anything()));
    await waitFor(() => expect(fieldError(three)).toBeNull());
    expect(three.value).toBe("13");
  });

  it("shows a failed job with the panel's words and its raw answer, and retries it", async () => {
    let retried = false;
    const sent = api({
      [`POST /api/admin/provisioning/${FAILED.id}/retry`]: () => {
        retried = true;
        return { body: { data: { ...FAILED, status: "pending", attempts: 0 } } };
      },
      "/api/admin/provisioning?status=failed": () => ({ body: { data: retried ? [] : [FAILED] } }),
    });
    await renderPage();
    const failed = await card("Failed: Create line for Nomsa Dlamini");
    expect(failed.textContent).toContain("The panel says there are not enough credits. Top up your reseller credits, then retry.");
    expect(failed.textContent).toContain("STATUS_INSUFFICIENT_CREDITS");
    const answer = failed.querySelector("details pre");
    expect(answer?.textContent).toBe('{"status":"STATUS_INSUFFICIENT_CREDITS","api_key":"***"}');
    expect(answer?.closest("details")?.open).toBe(false);

    await click(failed.querySelector("button[aria-label='Retry create line for Nomsa Dlamini']"));
    await waitFor(() =>
      expect(sent.some((r) => r.method === "POST" && r.path === `/api/admin/provisioning/${FAILED.id}/retry`)).toBe(true),
    );
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Sent to the panel again", expect.anything()));
    // refetched: no longer failed, and the alert is gone
    await waitFor(() => expect(page().querySelector("article[aria-label^='Failed:']")).toBeNull());
    expect(page().querySelector("[data-testid=out-of-credits]")).toBeNull();
  });

  it("completes a manual task: the username and password are required, then sent with the optional line id", async () => {
    const sent = api({
      "/api/admin/panel": {
        body: { ...VIEW, mode: "manual", connected: false, credits: null, low_credits: false, packages: [], mapping: {} },
      },
      [`POST /api/admin/provisioning/${TASK.id}/complete`]: { body: { data: { ...TASK, status: "done" } } },
    });
    await renderPage();
    const task = await card("Task: Create line for Sipho Ndlovu");
    expect(task.textContent).toContain(TASK.instruction);

    await click(getByRoleName(task, "button", "Save the login"));
    await waitFor(() => expect(fieldError(inputByLabel(task, "Line username"))).toBe(PASTE_USERNAME_MESSAGE));
    expect(fieldError(inputByLabel(task, "Line password"))).toBe(PASTE_PASSWORD_MESSAGE);
    expect(sent.some((r) => r.method === "POST")).toBe(false);

    await typeInto(inputByLabel(task, "Line username"), " sipho2231 ");
    await typeInto(inputByLabel(task, "Line password"), "Xk29pq7");
    await click(getByRoleName(task, "button", "Save the login"));
    await waitFor(() =>
      expect(sent.filter((r) => r.method === "POST").map((r) => r.body)).toEqual([{ username: "sipho2231", password: "Xk29pq7" }]),
    );
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Line saved", expect.anything()));
    // manual mode has nothing to map
    expect(page().querySelector("form[aria-label='Package mapping']")).toBeNull();
    expect(page().textContent).toContain("In manual mode you choose the package on your panel for each task");
  });

  it("a manual task shows the stream server its links use, and takes the panel's end date", async () => {
    const sent = api({
      "/api/admin/panel": { body: { ...VIEW, mode: "manual", connected: false, credits: null, packages: [], mapping: {} } },
      [`POST /api/admin/provisioning/${TASK.id}/complete`]: { body: { data: { ...TASK, status: "done" } } },
    });
    await renderPage();
    const task = await card("Task: Create line for Sipho Ndlovu");
    await waitFor(() => expect(task.querySelector("[data-testid=task-stream-url]")?.textContent).toContain(VIEW.stream_url));
    expect(() => inputByLabel(task, "Stream server URL")).toThrow();
    await typeInto(inputByLabel(task, "Line username"), "sipho2231");
    await typeInto(inputByLabel(task, "Line password"), "Xk29pq7");
    await typeInto(inputByLabel(task, "Line ends on"), "2099-03-31");
    await click(getByRoleName(task, "button", "Save the login"));
    await waitFor(() =>
      expect(sent.filter((r) => r.method === "POST").map((r) => r.body)).toEqual([
        { username: "sipho2231", password: "Xk29pq7", expires_on: "2099-03-31" },
      ]),
    );
  });

  it("a manual task with no stream server set asks for one: required, checked, then sent with the login", async () => {
    const none = { stream_url: "", stream_url_source: "none" as const, stream_url_setting: "", stream_url_default: "" };
    const sent = api({
      "/api/admin/panel": { body: { ...VIEW, ...none, mode: "manual", connected: false, credits: null, packages: [], mapping: {} } },
      [`POST /api/admin/provisioning/${TASK.id}/complete`]: { body: { data: { ...TASK, status: "done" } } },
    });
    await renderPage();
    const task = await card("Task: Create line for Sipho Ndlovu");
    const url = await waitFor(() => inputByLabel(task, "Stream server URL"));
    await typeInto(inputByLabel(task, "Line username"), "sipho2231");
    await typeInto(inputByLabel(task, "Line password"), "Xk29pq7");
    await click(getByRoleName(task, "button", "Save the login"));
    await waitFor(() => expect(fieldError(url)).toBe(PANEL_STREAM_URL_NEEDED));
    await typeInto(url, "tv.example.net/live");
    await click(getByRoleName(task, "button", "Save the login"));
    await waitFor(() => expect(fieldError(url)).toBe(STREAM_URL_MESSAGE));
    expect(sent.some((r) => r.method === "POST")).toBe(false);

    await typeInto(url, "http://TV.example.net:8080/");
    await click(getByRoleName(task, "button", "Save the login"));
    await waitFor(() =>
      expect(sent.filter((r) => r.method === "POST").map((r) => r.body)).toEqual([
        { username: "sipho2231", password: "Xk29pq7", stream_url: "http://tv.example.net:8080" },
      ]),
    );
  });

  it("saves the stream server and the read time, with the shared rules and the server's refusal on its field", async () => {
    let refuse = true;
    const sent = api({
      "PUT /api/admin/panel/settings": (body) =>
        refuse
          ? {
              status: 400,
              body: { error: { code: "validation", message: CACHE_MINUTES_MESSAGE, fields: { cache_minutes: CACHE_MINUTES_MESSAGE } } },
            }
          : {
              body: {
                ...VIEW,
                stream_url: "https://live.example.org",
                stream_url_source: "setting",
                stream_url_setting: "https://live.example.org",
                cache_minutes: (body as { cache_minutes: number }).cache_minutes,
              },
            },
    });
    await renderPage();
    const form = await waitFor(() => {
      const found = page().querySelector<HTMLFormElement>("form[aria-label='Panel settings']");
      if (!found) throw new Error("no settings form");
      return found;
    });
    expect(form.querySelector("[data-testid=stream-url-in-use]")?.textContent).toBe(VIEW.stream_url);
    const url = inputByLabel(form, "Stream server URL");
    const minutes = inputByLabel(form, "Keep panel reads for (minutes)");
    expect(minutes.value).toBe("5");

    await typeInto(url, "ftp://live.example.org");
    await typeInto(minutes, "90");
    await click(getByRoleName(form, "button", "Save panel settings"));
    await waitFor(() => expect(fieldError(url)).toBe(STREAM_URL_MESSAGE));
    expect(fieldError(minutes)).toBe(CACHE_MINUTES_MESSAGE);
    expect(sent.some((r) => r.method === "PUT")).toBe(false);

    await typeInto(url, "https://live.example.org");
    await typeInto(minutes, "10");
    await click(getByRoleName(form, "button", "Save panel settings"));
    await waitFor(() => expect(fieldError(minutes)).toBe(CACHE_MINUTES_MESSAGE));
    expect(fieldError(url)).toBeNull();

    refuse = false;
    await click(getByRoleName(form, "button", "Save panel settings"));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Panel settings saved", expect.anything()));
    expect(sent.filter((r) => r.method === "PUT").map((r) => r.body)).toEqual([
      { stream_url: "https://live.example.org", cache_minutes: 10 },
      { stream_url: "https://live.example.org", cache_minutes: 10 },
    ]);
  });

  it("Refresh asks the server to read the panel now, and shows when it was read", async () => {
    const sent = api({ "POST /api/admin/panel/refresh": { body: { ...VIEW, credits: 7, read_at: "2026-11-22T09:00:00.000Z" } } });
    await renderPage();
    await waitFor(() => expect(page().querySelector("[data-testid=panel-read-at]")?.textContent).toContain("kept for 5 min"));
    await click(getByRoleName(page(), "button", "Refresh"));
    await waitFor(() => expect(page().querySelector("[data-testid=panel-credits]")?.textContent).toBe("7"));
    expect(sent.filter((r) => r.method === "POST").map((r) => r.path)).toEqual(["/api/admin/panel/refresh"]);
  });

  it("puts the server's refusal of a pasted login on its field", async () => {
    api({
      [`POST /api/admin/provisioning/${TASK.id}/complete`]: {
        status: 400,
        body: { error: { code: "validation", message: PASTE_PASSWORD_MESSAGE, fields: { password: PASTE_PASSWORD_MESSAGE } } },
      },
    });
    await renderPage();
    const task = await card("Task: Create line for Sipho Ndlovu");
    await typeInto(inputByLabel(task, "Line username"), "sipho2231");
    await typeInto(inputByLabel(task, "Line password"), "x");
    await click(getByRoleName(task, "button", "Save the login"));
    await waitFor(() => expect(fieldError(inputByLabel(task, "Line password"))).toBe(PASTE_PASSWORD_MESSAGE));
  });

  it("marks a task with nothing to paste done", async () => {
    const SWITCH_OFF = {
      ...TASK,
      action: "disable_line" as const,
      needs_login: false,
      instruction: "Switch off the line sipho2231 of Sipho Ndlovu in your panel, then mark this done.",
    };
    const sent = api({ [`POST /api/admin/provisioning/${TASK.id}/complete`]: { body: { data: { ...SWITCH_OFF, status: "done" } } } }, [
      SWITCH_OFF,
      DONE,
    ]);
    await renderPage();
    const task = await card("Task: Switch line off for Sipho Ndlovu");
    expect(task.querySelector("input")).toBeNull();
    await click(getByRoleName(task, "button", "Mark done"));
    await waitFor(() =>
      expect(sent.filter((r) => r.method === "POST").map((r) => [r.path, r.body])).toEqual([
        [`/api/admin/provisioning/${TASK.id}/complete`, {}],
      ]),
    );
  });

  it("lists what was done lately, each with its client", async () => {
    api();
    await renderPage();
    const done = await waitFor(() => {
      const found = page().querySelector("[aria-labelledby=jobs-done]");
      if (!found?.querySelector("li")) throw new Error("no done list");
      return found;
    });
    expect(done.querySelectorAll("li")).toHaveLength(1);
    expect(done.textContent).toContain("Create line · 3 Months for Thandi Nkosi");
    expect(done.querySelector(`a[href="/admin/client/${CLIENT}"]`)).not.toBeNull();
  });
});

const DRIFT: PanelDriftView = {
  id: "d1f70000-0000-4000-8000-000000000001",
  kind: "expiry",
  client_id: CLIENT,
  client_full_name: "Nomsa Dlamini",
  panel_line_id: "1001",
  ours: "2026-12-22T10:00:00.000Z",
  panel: "2027-01-01T10:00:00.000Z",
  description: "The panel's line ends on 1 Jan 2027, our term on 22 Dec 2026.",
  status: "open",
  direction: null,
  can_push: false,
  push_cost: null,
  can_accept: true,
  found_at: "2026-11-23T01:00:00.000Z",
  fixed_at: null,
  fixed_by: "",
};

const COUNTS = { expiry: 0, enabled: 0, max_connections: 0, missing_on_panel: 0, missing_here: 0 };

describe("bouquets per package", () => {
  it("ticks some of the mapped panel package's bouquets and saves them with the mapping", async () => {
    const withBouquets = { ...VIEW, packages: VIEW.packages.map((p) => (p.id === "11" ? { ...p, bouquets: ["1", "2", "3"] } : p)) };
    const sent = api({
      "/api/admin/panel": { body: withBouquets },
      "PUT /api/admin/panel/mapping": { body: { ...withBouquets, bouquets: { [MONTH]: ["1", "3"] } } },
    });
    await renderPage();
    const form = await waitFor(() => {
      const found = page().querySelector<HTMLFormElement>("form[aria-label='Package mapping']");
      if (!found?.querySelector("fieldset")) throw new Error("no bouquets");
      return found;
    });
    const boxes = [...form.querySelectorAll<HTMLInputElement>("input[type=checkbox]")];
    expect(boxes.map((b) => b.value)).toEqual(["1", "2", "3"]);
    expect(form.querySelector("legend")?.textContent).toBe("Bouquets (none ticked: all of them)");
    await click(boxes[0]);
    await click(boxes[2]);
    await click(getByRoleName(form, "button", "Save mapping"));
    await waitFor(() =>
      expect(sent.filter((r) => r.method === "PUT").map((r) => r.body)).toEqual([
        { packages: { [MONTH]: "11", [THREE]: "" }, trial: "90", bouquets: { [MONTH]: ["1", "3"] } },
      ]),
    );
  });
});

describe("the mapping page at a real panel's size", () => {
  // 47 packages (one to twelve months, one to four screens, trials), one of them on 60 bouquets.
  const many = [
    ...[1, 3, 6, 12].flatMap((months) =>
      [1, 2, 4].flatMap((screens) =>
        ["Full", "Sports", "VOD", "Regional"].map((lineup) => ({
          ...panelPackage(`${lineup}-${months}-${screens}`, `${lineup} ${months}M ${screens} Screens`, months),
          max_connections: screens,
          bouquets: lineup === "Full" && months === 12 && screens === 4 ? Array.from({ length: 60 }, (_, i) => String(i + 1)) : [],
        })),
      ),
    ),
    panelPackage("90", "Trial 24h", 0, true),
  ];

  it("groups the panel's packages by length, narrows every list with one search, and keeps the saved choice", async () => {
    expect(many).toHaveLength(49);
    api({ "/api/admin/panel": { body: { ...VIEW, packages: many, mapping: { [MONTH]: "Full-1-1" } } } });
    await renderPage();
    const form = await waitFor(() => {
      const found = page().querySelector<HTMLFormElement>("form[aria-label='Package mapping']");
      if (!found) throw new Error("no mapping form");
      return found;
    });
    const month = rowSelect(form, "Month to Month");
    expect([...month.querySelectorAll("optgroup")].map((g) => g.label)).toEqual(["1 month", "3 months", "6 months", "12 months"]);
    expect(month.querySelectorAll("option")).toHaveLength(49);
    expect(month.querySelector("optgroup")?.querySelector("option")?.textContent).toBe("Full 1M 1 Screens (1 month · 1 credit)");
    expect(month.textContent).toContain("Sports 3M 2 Screens (3 months · 2 screens · 3 credits)");

    const search = inputByLabel(form, "Find a panel package");
    await typeInto(search, "sports 2 screens");
    // the four sports packages on two screens, and the saved choice, which stays whatever the words
    const left = [...month.querySelectorAll("option")].map((o) => o.textContent);
    expect(left).toEqual([
      "Not mapped: lines wait for you",
      "Full 1M 1 Screens (1 month · 1 credit)",
      "Sports 1M 2 Screens (1 month · 2 screens · 1 credit)",
      "Sports 3M 2 Screens (3 months · 2 screens · 3 credits)",
      "Sports 6M 2 Screens (6 months · 2 screens · 6 credits)",
      "Sports 12M 2 Screens (12 months · 2 screens · 12 credits)",
    ]);
    expect(month.value).toBe("Full-1-1");
  });

  it("sixty bouquets fold away with a count; Tick all and Untick all choose them at once", async () => {
    const sent = api({
      "/api/admin/panel": { body: { ...VIEW, packages: many, mapping: { [MONTH]: "Full-12-4" } } },
      "PUT /api/admin/panel/mapping": { body: { ...VIEW, packages: many, mapping: { [MONTH]: "Full-12-4" } } },
    });
    await renderPage();
    const details = await waitFor(() => {
      const found = page().querySelector<HTMLDetailsElement>("form[aria-label='Package mapping'] details");
      if (!found) throw new Error("no bouquets");
      return found;
    });
    expect(details.open).toBe(false);
    expect(details.querySelector("summary")?.textContent).toBe("Bouquets: all 60 (none ticked)");
    expect(details.querySelectorAll("input[type=checkbox]")).toHaveLength(60);
    await click(getByRoleName(details, "button", "Tick all"));
    await waitFor(() => expect(details.querySelector("summary")?.textContent).toBe("Bouquets: 60 of 60 ticked"));
    const boxes = [...details.querySelectorAll<HTMLInputElement>("input[type=checkbox]")];
    await click(boxes[59]);
    await waitFor(() => expect(details.querySelector("summary")?.textContent).toBe("Bouquets: 59 of 60 ticked"));
    await click(getByRoleName(page(), "button", "Save mapping"));
    await waitFor(() => expect(sent.filter((r) => r.method === "PUT")).toHaveLength(1));
    const body = sent.find((r) => r.method === "PUT")?.body as { bouquets: Record<string, string[]> };
    expect(body.bouquets[MONTH]).toEqual(Array.from({ length: 59 }, (_, i) => String(i + 1)));
    await click(getByRoleName(details, "button", "Untick all"));
    await waitFor(() => expect(details.querySelector("summary")?.textContent).toBe("Bouquets: all 60 (none ticked)"));
  });
});

describe("differences with the panel, and the runway", () => {
  it("lists a difference with both sides and offers only the fixes the panel allows; accept posts it once", async () => {
    const sent = api({
      "/api/admin/panel/drift": {
        body: {
          data: [
            DRIFT,
            {
              ...DRIFT,
              id: "d1f70000-0000-4000-8000-000000000002",
              kind: "enabled",
              ours: "true",
              panel: "false",
              can_push: true,
              description: "The panel has the line switched off, but the client should be watching.",
            },
          ],
        },
      },
      [`POST /api/admin/panel/drift/${DRIFT.id}/fix`]: { body: { data: { ...DRIFT, status: "fixed", direction: "accept" } } },
    });
    await renderPage();
    const rows = await waitFor(() => {
      const found = page().querySelectorAll<HTMLElement>("[data-testid=drift-row]");
      if (found.length !== 2) throw new Error("no drift rows");
      return [...found];
    });
    const [expiry, enabled] = rows;
    expect(expiry.textContent).toContain("Expiry date for Nomsa Dlamini");
    expect(expiry.textContent).toContain("Ours22 Dec 2026");
    expect(expiry.textContent).toContain("The panel's1 Jan 2027");
    expect(expiry.textContent).not.toContain("Push ours to the panel");
    expect(enabled.textContent).toContain("OursOn");
    expect(enabled.textContent).toContain("The panel'sOff");
    expect(enabled.textContent).toContain("Push ours to the panel");
    await click(getByRoleName(expiry, "button", "Accept the panel's"));
    await waitFor(() =>
      expect(sent.filter((r) => r.method === "POST").map((r) => [r.path, r.body])).toEqual([
        [`/api/admin/panel/drift/${DRIFT.id}/fix`, { direction: "accept" }],
      ]),
    );
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("The panel's side is now ours."));
  });

  it("a fix the server refuses is toasted in its words", async () => {
    api({
      "/api/admin/panel/drift": { body: { data: [{ ...DRIFT, can_push: true }] } },
      [`POST /api/admin/panel/drift/${DRIFT.id}/fix`]: {
        status: 409,
        body: {
          error: {
            code: "conflict",
            message: "The reseller API cannot shorten a line: accept the panel's date, or shorten the line on the panel.",
          },
        },
      },
    });
    await renderPage();
    const row = await waitFor(() => {
      const found = page().querySelector<HTMLElement>("[data-testid=drift-row]");
      if (!found) throw new Error("no drift row");
      return found;
    });
    await click(getByRoleName(row, "button", "Push ours to the panel"));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        "The reseller API cannot shorten a line: accept the panel's date, or shorten the line on the panel.",
      ),
    );
  });

  it("a push that buys a package says what it spends and asks before sending; Cancel sends nothing", async () => {
    const cost = {
      credits: 3,
      words: "Extends the line by one 3 Months Official package: 3 credits. The panel will end it on 2 Mar 2027.",
    };
    const sent = api({
      "/api/admin/panel/drift": { body: { data: [{ ...DRIFT, can_push: true, push_cost: cost }], total: 1, counts: COUNTS } },
      [`POST /api/admin/panel/drift/${DRIFT.id}/fix`]: { body: { data: { ...DRIFT, status: "fixed", direction: "push" } } },
    });
    await renderPage();
    const row = await waitFor(() => {
      const found = page().querySelector<HTMLElement>("[data-testid=drift-row]");
      if (!found) throw new Error("no drift row");
      return found;
    });
    expect(row.querySelector("[data-testid=drift-push-cost]")?.textContent).toBe(`Pushing: ${cost.words}`);
    await click(getByRoleName(row, "button", "Push ours to the panel"));
    const dialog = await waitFor(() => {
      const found = document.querySelector<HTMLElement>("[role=dialog]");
      if (!found) throw new Error("no dialog");
      return found;
    });
    expect(dialog.textContent).toContain("Spend 3 panel credits?");
    expect(dialog.textContent).toContain(cost.words);
    await click(getByRoleName(dialog, "button", "Cancel"));
    await waitFor(() => expect(document.querySelector("[role=dialog]")).toBeNull());
    expect(sent.filter((r) => r.method === "POST")).toEqual([]);

    await click(getByRoleName(row, "button", "Push ours to the panel"));
    const again = await waitFor(() => {
      const found = document.querySelector<HTMLElement>("[role=dialog]");
      if (!found) throw new Error("no dialog");
      return found;
    });
    await click(getByRoleName(again, "button", "Push: spend 3"));
    await waitFor(() =>
      expect(sent.filter((r) => r.method === "POST").map((r) => [r.path, r.body])).toEqual([
        [`/api/admin/panel/drift/${DRIFT.id}/fix`, { direction: "push" }],
      ]),
    );
  });

  it("a last check that could not read the panel is shown as a failure, never as 'agree'", async () => {
    const lastCheck = {
      at: "2026-11-23T12:02:00.000Z",
      ok: false,
      error: "The panel did not answer within 10 s.",
      checked: 0,
      flagged: 0,
      lines_read: 0,
      failures_in_row: 2,
      took_ms: 10_000,
    };
    api({
      "/api/admin/panel": { body: { ...VIEW, last_check: lastCheck } },
      "/api/admin/panel/drift": { body: { data: [], total: 0, counts: COUNTS } },
    });
    await renderPage();
    const said = await waitFor(() => {
      const found = page().querySelector<HTMLElement>("[data-testid=panel-last-check]");
      if (!found?.textContent?.includes("failed")) throw new Error("no last check");
      return found;
    });
    expect(said.textContent).toBe(
      "The last check failed at 23 Nov 2026, 14:02: The panel did not answer within 10 s. (2 checks in a row have failed). Until one works, differences are not found.",
    );
    expect(said.getAttribute("role")).toBe("alert");
    const none = await waitFor(() => {
      const found = page().querySelector<HTMLElement>("[data-testid=drift-none]");
      if (!found) throw new Error("no empty text");
      return found;
    });
    expect(none.textContent).not.toContain("agree");
  });

  it("counts the panel's lines no client has, and lists them a page at a time only when asked", async () => {
    const unlinked = Array.from({ length: 50 }, (_, i) => ({
      ...DRIFT,
      id: `d1f70000-0000-4000-8000-${String(100 + i).padStart(12, "0")}`,
      kind: "missing_here" as const,
      client_id: null,
      client_full_name: null,
      panel_line_id: String(100_001 + i),
      description: "No client of ours has this line.",
    }));
    const counts = { ...COUNTS, missing_here: 2_200 };
    const sent = api({
      "/api/admin/panel/drift?kind=clients&limit=200": { body: { data: [], total: 0, counts } },
      "/api/admin/panel/drift?kind=missing_here&limit=50": { body: { data: unlinked, total: 2_200, counts } },
    });
    await renderPage();
    const heading = await waitFor(() => {
      const found = page().querySelector<HTMLElement>("#drift-unlinked");
      if (!found) throw new Error("no unlinked count");
      return found;
    });
    expect(heading.textContent).toBe("2,200 lines on the panel with no client here");
    // Counted only: not one of them is asked for until the owner wants to see them.
    expect(page().querySelectorAll("[data-kind=missing_here]")).toHaveLength(0);
    expect(sent.filter((r) => r.path === "/api/admin/panel/drift")).toHaveLength(1);
    await click(getByRoleName(page(), "button", "Show them"));
    await waitFor(() => expect(page().querySelectorAll("[data-kind=missing_here]")).toHaveLength(50));
    expect(getByRoleName(page(), "button", "Show 50 more of 2,150")).not.toBeNull();
  });

  it("in manual mode the runway says the credits are unknown, never '0 credits'", async () => {
    api({
      "/api/admin/panel": {
        body: {
          ...VIEW,
          mode: "manual",
          connected: false,
          credits: null,
          runway: { runs_out_on: null, renewals_due_30d: 4, credits_needed_30d: null, credits_known: false },
        },
      },
    });
    await renderPage();
    const runway = await waitFor(() => {
      const found = page().querySelector<HTMLElement>("[data-testid=panel-runway]");
      if (!found) throw new Error("no runway");
      return found;
    });
    expect(runway.textContent).toBe(
      "4 renewals due in 30 days. How long your credits last is not known in manual mode: check the balance on your panel.",
    );
  });

  it("says how many renewals are due, the credits they need and the day the credits run out", async () => {
    api({ "/api/admin/panel": { body: { ...VIEW, runway: { runs_out_on: "2026-12-05", renewals_due_30d: 3, credits_needed_30d: 7 } } } });
    await renderPage();
    const runway = await waitFor(() => {
      const found = page().querySelector<HTMLElement>("[data-testid=panel-runway]");
      if (!found) throw new Error("no runway");
      return found;
    });
    expect(runway.textContent).toBe("3 renewals due in 30 days need 7 credits. Credits run out on 5 Dec 2026.");
  });
});

/** The select of a mapping row, found by the row's title. */
function rowSelect(form: HTMLElement, title: string): HTMLSelectElement {
  const label = [...form.querySelectorAll("label")].find((l) => l.querySelector("span")?.textContent === title);
  const select = label ? document.getElementById(label.htmlFor) : null;
  if (!(select instanceof HTMLSelectElement)) throw new Error(`no mapping row "${title}"`);
  return select;
}
