import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ClientLine, type ClientProfile, SUSPENDED_MESSAGE, SUSPENDED_PAYMENT_MESSAGE } from "@/shared/client-schemas";
import { formatDate } from "@/shared/dates";
import { cleanup, click, getByRoleName, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { ClientLayout } from "./client-layout";
import { ClientPortalPage } from "./client-portal-page";
import { goToCheckout } from "./components/checkout";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock("./components/checkout", () => ({ goToCheckout: vi.fn() }));

const DAY = 86_400_000;
const LINE: ClientLine = {
  username: "line-thandi",
  password: "s3cret-line",
  portal_url: "http://line.example.test",
  server_url: "http://line.example.test",
  m3u_url: "http://line.example.test/get.php?username=line-thandi&password=s3cret-line&type=m3u_plus&output=ts",
  epg_url: "http://line.example.test/xmltv.php?username=line-thandi&password=s3cret-line",
  expires_at: "2026-11-22T10:00:00.000Z",
  is_test: false,
  type: "m3u",
  mac: "",
  mac_change: null,
  self_service: true,
};
const PKG = "6f1b7f3a-1c55-4c36-9a1e-3f1f9b0c2d11";
const OTHER = "0b0b7f3a-1c55-4c36-9a1e-3f1f9b0c2d22";

function profile(overrides: Partial<ClientProfile["subscription"]>, status: ClientProfile["status"] = "active"): ClientProfile {
  return {
    id: "c1",
    username: "thandi",
    full_name: "Thandi Nkosi",
    email: "thandi@example.test",
    whatsapp: "27821234567",
    communication_method: "whatsapp",
    marketing_opt_in: false,
    marketing_opt_in_at: null,
    status,
    subscription: {
      status: "active",
      package: "Month to Month",
      package_id: PKG,
      start: "2026-10-22T10:00:00.000Z",
      end: "2026-11-22T10:00:00.000Z",
      days_left: 23,
      ...overrides,
    },
    device: "firestick",
    device_label: "Amazon Fire Stick",
    internet_platform: "fibre",
    line: status === "suspended" ? null : LINE,
    created_at: "2026-10-22T10:00:00.000Z",
  };
}

const plans = [
  {
    packageId: PKG,
    packageName: "Month to Month",
    period: "Month to Month",
    duration: "1 Month",
    price: 200,
    popular: false,
    hasSpecial: false,
    features: [],
    description: "",
    isCurrent: true,
  },
  {
    packageId: OTHER,
    packageName: "3 Months",
    period: "3 Months",
    duration: "3 Months",
    price: 500,
    popular: true,
    hasSpecial: false,
    features: [],
    description: "",
    isCurrent: false,
  },
];

const session = (status: ClientProfile["status"]) => ({
  body: { success: true, client: { id: "c1", username: "thandi", full_name: "Thandi Nkosi", status } },
});

function api(me: ClientProfile, extra: Parameters<typeof stubFetch>[0] = {}) {
  return stubFetch({
    "/client/session": session(me.status),
    "/client/me": { body: { data: me } },
    "/client/specials": { body: { data: { specials: [], plans } } },
    "/client/notices": {
      body: {
        data: [
          {
            id: "n1",
            title: "Planned maintenance",
            body: "Sunday 02:00",
            severity: "info",
            audience: "clients",
            starts_at: null,
            ends_at: null,
            created_at: "2026-10-30T10:00:00.000Z",
          },
        ],
        incidents: [
          {
            id: "i1",
            title: "Sport channels buffering",
            body: "We're on it.",
            impact: "minor",
            status: "investigating",
            component_keys: [],
            started_at: "2026-10-30T10:00:00.000Z",
            resolved_at: null,
          },
        ],
        components: [],
      },
    },
    "/client/apps": {
      body: {
        data: [
          {
            id: "a1",
            name: "Player One",
            description: "",
            download_url: "yes",
            file_type: "apk",
            file_size: "20 MB",
            version: "2.1",
            device_compatibility: ["firestick"],
            installation_guide: "1. Open Downloader\n2. Enter the code",
            download_count: 0,
            is_featured: true,
            qr_code_data: null,
            logo_url: null,
            sort_order: 0,
            is_active: true,
            for_your_device: true,
            steps: ["Open Downloader", "Enter the code"],
          },
        ],
      },
    },
    "/client/content-requests": {
      body: {
        data: [
          {
            id: "r1",
            request_type: "channel",
            title: "SuperSport Rugby",
            details: "",
            status: "in_progress",
            reply: "Checking with the provider",
            created_at: "2026-10-30T10:00:00.000Z",
            updated_at: "2026-10-30T10:00:00.000Z",
          },
        ],
      },
    },
    "/client/renew": {
      status: 201,
      body: { success: true, method: "card", paylinkUrl: "http://127.0.0.1/sandbox/checkout/x", externalTransactionID: "SD_1" },
    },
    "/branding": { body: { data: { company_name: "StreamDesk", whatsapp_number: "0821234567", support_email: "help@streamdesk.test" } } },
    "/settings": { body: { data: { grace_days: "5" } } },
    ...extra,
  });
}

const routes = [
  {
    path: "/client",
    Component: ClientLayout,
    children: [
      { index: true, Component: ClientPortalPage },
      { path: "login", Component: () => <p>Login page</p> },
    ],
  },
];

beforeEach(() => {
  vi.stubGlobal("EventSource", undefined);
  vi.mocked(goToCheckout).mockClear();
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("the portal home", () => {
  it("shows an active client their status, dates, days left, line details, apps, notices and requests", async () => {
    vi.stubGlobal("fetch", api(profile({})).fetch);
    const { rendered } = renderRoutes(routes, "/client");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("[data-portal]")?.getAttribute("data-portal")).toBe("full"));
    expect(container.querySelector("[data-testid=subscription-status]")?.textContent).toBe("Active");
    expect(container.querySelector("[data-testid=days-left]")?.textContent).toBe("23 days left");
    expect(container.textContent).toContain("Month to Month");
    expect(container.textContent).toContain("22 Oct 2026");
    expect(container.textContent).toContain("22 Nov 2026");
    expect(container.textContent).toContain("line-thandi");
    expect(container.querySelector('[aria-label="Copy line username"]')).not.toBeNull();
    expect(container.textContent).not.toContain("s3cret-line");
    await waitFor(() => expect(container.textContent).toContain("Player One"));
    expect(container.textContent).toContain("For your Amazon Fire Stick");
    expect(container.textContent).toContain("Enter the code");
    await waitFor(() => expect(container.textContent).toContain("Sport channels buffering"));
    expect(container.textContent).toContain("Planned maintenance");
    await waitFor(() => expect(container.textContent).toContain("SuperSport Rugby"));
    expect(container.textContent).toContain("In progress");
    expect(container.textContent).toContain("Checking with the provider");
    // Help opens at their own device.
    expect(container.querySelector("#help-heading")?.textContent).toBe("Help");
    expect(container.querySelector('a[href="/setup-guide?device=firestick"]')?.textContent).toContain("Set up your Amazon Fire Stick");
    expect(container.querySelector('a[href="/technical-support?device=firestick"]')).not.toBeNull();
  });

  it("a MAG box's customer sees their box's setup only: no login-based player apps", async () => {
    vi.stubGlobal("fetch", api({ ...profile({}), line: { ...LINE, type: "mag", mac: "00:1A:79:12:34:56" } }).fetch);
    const { rendered } = renderRoutes(routes, "/client");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("[data-testid=line-details]")).not.toBeNull());
    await waitFor(() => expect(container.textContent).toContain("00:1A:79:12:34:56"));
    expect(container.textContent).not.toContain("Player apps");
    expect(container.textContent).not.toContain("Player One");
  });

  it("says the line is being set up while a paid client has none yet", async () => {
    vi.stubGlobal("fetch", api({ ...profile({}), line: null }).fetch);
    const { rendered } = renderRoutes(routes, "/client");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("[data-testid=line-pending]")).not.toBeNull());
    expect(container.querySelector("[data-testid=line-pending]")?.textContent).toContain(
      "Your line is being set up — we'll send your login the moment it's ready.",
    );
    expect(container.querySelector("[data-testid=line-details]")).toBeNull();
  });

  it("renews by card with the client's own package and goes to the checkout", async () => {
    const stub = api(profile({ status: "expiring", days_left: 3 }));
    const sent: unknown[] = [];
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes("/client/renew")) sent.push(JSON.parse(String(init?.body)));
      return stub.fetch(input, init);
    });
    const { rendered } = renderRoutes(routes, "/client?renew=1");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("[data-testid=subscription-status]")?.textContent).toBe("Expiring soon"));
    const pay = await waitFor(() => getByRoleName(container, "button", "Pay R200 by card"));
    await click(pay);
    await waitFor(() => expect(goToCheckout).toHaveBeenCalledWith("http://127.0.0.1/sandbox/checkout/x"));
    expect(sent).toEqual([{ packageId: PKG, method: "card" }]);
  });

  it("gives an expired client the restricted portal, whose main action is renewing", async () => {
    const end = new Date(Date.now() - 2 * DAY).toISOString();
    vi.stubGlobal("fetch", api(profile({ status: "expired", days_left: 0, end }, "expired")).fetch);
    const { rendered } = renderRoutes(routes, "/client");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("[data-portal]")?.getAttribute("data-portal")).toBe("restricted"));
    expect(container.querySelector("[role=alert] h2")?.textContent).toBe("Your subscription has ended");
    expect(container.querySelector("[data-testid=subscription-status]")?.textContent).toBe("Expired");
    expect(container.querySelector("[data-testid=days-left]")?.textContent).toBe("Ended");
    // Renewing is there; the line, the apps and content requests are not.
    await waitFor(() => getByRoleName(container, "button", "Pay R200 by card"));
    expect(container.querySelector("#renew")).not.toBeNull();
    expect(container.textContent).not.toContain("line-thandi");
    expect(container.textContent).not.toContain("Player apps");
    expect(container.querySelector("#content-requests")).toBeNull();
    expect(container.querySelector('a[href="/technical-support?device=firestick"]')).not.toBeNull();
  });

  it("shows EFT details with the reference when the client chooses EFT", async () => {
    const stub = api(profile({}));
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes("/client/renew"))
        return new Response(
          JSON.stringify({
            success: true,
            method: "eft",
            reference: "SD_EFT_42",
            amount: 500,
            package_name: "3 Months",
            bank: {
              bank_name: "FNB",
              account_name: "StreamDesk",
              account_number: "62000000000",
              branch_code: "250655",
              account_type: "Cheque",
            },
          }),
          { status: 201, headers: { "content-type": "application/json" } },
        );
      return stub.fetch(input, init);
    });
    const { rendered } = renderRoutes(routes, `/client?renew=1&package=${OTHER}`);
    const { container } = await rendered;
    await waitFor(() => getByRoleName(container, "button", "Pay R500 by card"));
    await click(container.querySelector<HTMLInputElement>('#renew input[value="eft"]'));
    await click(getByRoleName(container, "button", "Get EFT details"));
    await waitFor(() => expect(container.querySelector("[data-testid=eft-reference]")?.textContent).toBe("SD_EFT_42"));
    expect(container.textContent).toContain("62000000000");
    expect(container.textContent).toContain("R500");
  });
});

describe("where the client stands", () => {
  it("a pending client is waiting for their first payment, with paying as the main action", async () => {
    vi.stubGlobal("fetch", api(profile({ status: "pending", start: null, end: null, days_left: null }, "pending")).fetch);
    const { rendered } = renderRoutes(routes, "/client");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("[data-portal]")?.getAttribute("data-portal")).toBe("restricted"));
    expect(container.querySelector("[data-testid=status-notice] h2")?.textContent).toBe("Waiting for your first payment");
    expect(container.querySelector("[data-testid=subscription-status]")?.textContent).toBe("Awaiting payment");
    expect(container.querySelector("[data-testid=days-left]")?.textContent).toBe("Not started yet");
    expect(container.querySelector("#renew-heading")?.textContent).toBe("Pay for your subscription");
    await waitFor(() => getByRoleName(container, "button", "Pay R200 by card"));
    expect(container.querySelector("#content-requests")).toBeNull();
  });

  it("a client in grace is told until when they can renew (the grace days from the settings)", async () => {
    const end = new Date(Date.now() - DAY).toISOString();
    vi.stubGlobal("fetch", api(profile({ status: "grace", end, days_left: 0 }, "grace")).fetch);
    const { rendered } = renderRoutes(routes, "/client");
    const { container } = await rendered;
    const until = formatDate(new Date(Date.parse(end) + 5 * DAY));
    await waitFor(() => expect(container.querySelector("[data-testid=status-notice]")?.textContent).toContain(`until ${until} to renew`));
    expect(container.querySelector("[data-testid=status-notice] h2")?.textContent).toBe("Your subscription has ended");
    expect(container.textContent).toContain("before the service stops");
    expect(container.querySelector("[data-testid=subscription-status]")?.textContent).toBe("Grace period");
    expect(container.querySelector("[data-testid=days-left]")?.textContent).toBe(`Renew by ${until}`);
    // still the full portal: they may watch until it stops
    expect(container.querySelector("[data-portal]")?.getAttribute("data-portal")).toBe("full");
    await waitFor(() => getByRoleName(container, "button", "Pay R200 by card"));
  });

  it("a suspended client sees only the suspended page: the message, how to reach the business, and Sign out", async () => {
    const stub = api(profile({ status: "suspended" }, "suspended"), { "/client/data-requests": { body: { data: [] } } });
    vi.stubGlobal("fetch", stub.fetch);
    const { rendered, router } = renderRoutes(routes, "/client?renew=1");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("[data-portal]")?.getAttribute("data-portal")).toBe("suspended"));
    expect(container.querySelector("h1")?.textContent).toBe("Your account is suspended");
    expect(container.textContent).toContain(SUSPENDED_MESSAGE);
    await waitFor(() => expect(container.querySelector<HTMLAnchorElement>('a[href^="https://wa.me/27821234567"]')).not.toBeNull());
    expect(container.querySelector<HTMLAnchorElement>('a[href="mailto:help@streamdesk.test"]')?.textContent).toBe("help@streamdesk.test");
    // nothing else of the portal: no navigation, subscription, renewing, payments or requests
    for (const gone of ["nav", "#renew", "[data-testid=subscription-status]", "#content-requests", 'a[href="/payment-history"]'])
      expect(container.querySelector(gone)).toBeNull();
    expect(stub.calls.some((c) => c.startsWith("/client/me") || c.startsWith("/client/specials"))).toBe(false);
    // their data is theirs: the download stays open to them
    expect(container.querySelector<HTMLAnchorElement>('a[href="/api/client/data-export"]')?.textContent).toBe("Download my data");
    // and so is asking for a correction or an erasure (POPIA s24)
    expect(container.querySelector("#data-requests-heading")).not.toBeNull();
    await waitFor(() => expect(stub.calls.some((c) => c.startsWith("/client/data-requests"))).toBe(true));

    await click(getByRoleName(container, "button", "Sign out"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/client/login"));
  });

  it("shows a refused renewal's reason beside the button", async () => {
    const refusal = { status: 409, body: { error: { code: "conflict", message: "That package is no longer on offer." } } };
    vi.stubGlobal("fetch", api(profile({ status: "expiring", days_left: 3 }), { "/client/renew": refusal }).fetch);
    const { rendered } = renderRoutes(routes, "/client");
    const { container } = await rendered;
    await click(await waitFor(() => getByRoleName(container, "button", "Pay R200 by card")));
    await waitFor(() => expect(container.querySelector("#renew [role=alert]")?.textContent).toBe("That package is no longer on offer."));
    expect(goToCheckout).not.toHaveBeenCalled();
  });

  it("a renewal refused because the account was suspended meanwhile checks the session again and shows the suspended page", async () => {
    let suspended = false;
    const refusal = () => {
      suspended = true;
      return { status: 409, body: { error: { code: "suspended", message: SUSPENDED_PAYMENT_MESSAGE } } };
    };
    const stub = api(profile({}), {
      "/client/renew": refusal,
      "/client/session": () => session(suspended ? "suspended" : "active"),
    });
    vi.stubGlobal("fetch", stub.fetch);
    const { rendered } = renderRoutes(routes, "/client");
    const { container } = await rendered;
    await click(await waitFor(() => getByRoleName(container, "button", "Pay R200 by card")));
    await waitFor(() => expect(container.querySelector("[data-portal]")?.getAttribute("data-portal")).toBe("suspended"));
    expect(stub.calls.filter((c) => c === "/client/session")).toHaveLength(2);
  });
});
