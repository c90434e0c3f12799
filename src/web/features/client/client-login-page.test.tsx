import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, getByRoleName, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { ClientLayout } from "./client-layout";
import { ClientLoginPage, returnPath } from "./client-login-page";
import { ClientPortalPage } from "./client-portal-page";
import { LEGACY_CLIENT_STORAGE_KEYS } from "./session/client-session";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
const { toast } = await import("@/web/lib/toast");

const SESSION = { success: true, client: { id: "c1", username: "thandi", full_name: "Thandi Nkosi", status: "active" } };
const NO_SESSION = { status: 401, body: { error: { code: "unauthorized", message: "Please sign in to your client portal." } } };

const routes = [
  {
    path: "/client",
    Component: ClientLayout,
    children: [
      { path: "login", Component: ClientLoginPage },
      { index: true, Component: () => <p>Portal home</p> },
    ],
  },
];

function type(input: HTMLInputElement | null, value: string) {
  if (!input) throw new Error("no input");
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  setter?.call(input, value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

async function signInWith(container: HTMLElement, username: string, password: string) {
  await act(async () => {
    type(container.querySelector<HTMLInputElement>("#client-username"), username);
    type(container.querySelector<HTMLInputElement>("#client-password"), password);
  });
  await click(getByRoleName(container, "button", "Sign In"));
}

function stubLogin(login: { status?: number; body: unknown }, extra: Parameters<typeof stubFetch>[0] = {}) {
  let signedIn = false;
  return stubFetch({
    "/client/session": () => (signedIn ? { body: SESSION } : NO_SESSION),
    "/client/login": () => {
      if (!login.status || login.status < 400) signedIn = true;
      return login;
    },
    "/client/logout": () => {
      signedIn = false;
      return { body: { success: true } };
    },
    "/branding": { body: { data: { company_name: "StreamDesk" } } },
    ...extra,
  });
}

beforeEach(() => {
  vi.stubGlobal("EventSource", undefined);
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
  window.sessionStorage.clear();
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("client sign-in", () => {
  it("clears the old sessionStorage values and says 'Login Successful' / 'Welcome to your client portal'", async () => {
    for (const key of LEGACY_CLIENT_STORAGE_KEYS) window.sessionStorage.setItem(key, "old");
    window.sessionStorage.setItem("popupShownThisSession", "true");
    vi.stubGlobal("fetch", stubLogin({ body: SESSION }).fetch);
    const { router, rendered } = renderRoutes(routes, "/client/login");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#client-username")).not.toBeNull());
    expect(container.textContent).toContain("Forgot password?");

    await signInWith(container, "thandi", "right-password");
    await waitFor(() => expect(container.textContent).toContain("Portal home"));
    expect(router.state.location.pathname).toBe("/client");
    expect(toast.success).toHaveBeenCalledWith("Login Successful", { description: "Welcome to your client portal" });
    for (const key of LEGACY_CLIENT_STORAGE_KEYS) expect(window.sessionStorage.getItem(key)).toBeNull();
    // Only the client's own old keys go.
    expect(window.sessionStorage.getItem("popupShownThisSession")).toBe("true");
  });

  it("says 'Invalid username or password' on a 401, keeps the form and the stored values", async () => {
    window.sessionStorage.setItem("client_session_token", "old");
    vi.stubGlobal(
      "fetch",
      stubLogin({ status: 401, body: { error: { code: "invalid_credentials", message: "Invalid username or password" } } }).fetch,
    );
    const { router, rendered } = renderRoutes(routes, "/client/login");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#client-username")).not.toBeNull());
    await signInWith(container, "thandi", "wrong");
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Login Failed", { description: "Invalid username or password" }));
    expect(router.state.location.pathname).toBe("/client/login");
    expect(toast.success).not.toHaveBeenCalled();
    expect(window.sessionStorage.getItem("client_session_token")).toBe("old");
  });

  it("says 'An unexpected error occurred during login' for anything else", async () => {
    vi.stubGlobal("fetch", stubLogin({ status: 500, body: { error: { code: "internal", message: "Something broke." } } }).fetch);
    const { rendered } = renderRoutes(routes, "/client/login");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#client-username")).not.toBeNull());
    await signInWith(container, "thandi", "pw");
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith("Login Error", { description: "An unexpected error occurred during login" }),
    );
  });

  it("asks for both fields before calling the server", async () => {
    const api = stubLogin({ body: SESSION });
    vi.stubGlobal("fetch", api.fetch);
    const { rendered } = renderRoutes(routes, "/client/login");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#client-username")).not.toBeNull());
    await click(getByRoleName(container, "button", "Sign In"));
    await waitFor(() => expect(container.querySelector("#client-username-error")?.textContent).toBe("Please enter your username"));
    expect(container.querySelector("#client-password-error")?.textContent).toBe("Please enter your password");
    expect(api.calls).not.toContain("/client/login");
  });

  it("sends a signed-out visitor from the portal to sign in, back there after, and signs out with 'Logged Out'", async () => {
    const api = stubLogin(
      { body: SESSION },
      {
        "/client/me": { status: 500, body: { error: { code: "internal", message: "Down." } } },
        "/client/notices": { body: { data: [], incidents: [], components: [] } },
      },
    );
    vi.stubGlobal("fetch", api.fetch);
    const portalRoutes = [
      {
        path: "/client",
        Component: ClientLayout,
        children: [
          { path: "login", Component: ClientLoginPage },
          { index: true, Component: ClientPortalPage },
        ],
      },
    ];
    const { router, rendered } = renderRoutes(portalRoutes, "/client?renew=1");
    const { container } = await rendered;
    await waitFor(() => expect(router.state.location.pathname).toBe("/client/login"));
    await waitFor(() => expect(container.querySelector("#client-username")).not.toBeNull());
    await signInWith(container, "thandi", "right-password");
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe("/client?renew=1"));
    await waitFor(() => getByRoleName(container, "button", "Sign out"));

    window.sessionStorage.setItem("client_data", "{}");
    await click(getByRoleName(container, "button", "Sign out"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/client/login"));
    expect(toast.success).toHaveBeenCalledWith("Logged Out", { description: "You have been logged out successfully" });
    expect(window.sessionStorage.getItem("client_data")).toBeNull();
    expect(api.calls).toContain("/client/logout");
  });

  it("still clears the session when the server cannot be reached on sign-out", async () => {
    const api = stubLogin({ body: SESSION }, { "/client/notices": { body: { data: [], incidents: [], components: [] } } });
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes("/client/logout")) throw new TypeError("offline");
      return api.fetch(input, init);
    });
    const portalRoutes = [
      {
        path: "/client",
        Component: ClientLayout,
        children: [
          { path: "login", Component: ClientLoginPage },
          { index: true, Component: ClientPortalPage },
        ],
      },
    ];
    const { router, rendered } = renderRoutes(portalRoutes, "/client/login");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#client-username")).not.toBeNull());
    await signInWith(container, "thandi", "pw");
    await waitFor(() => getByRoleName(container, "button", "Sign out"));
    await click(getByRoleName(container, "button", "Sign out"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/client/login"));
    expect(toast.success).toHaveBeenCalledWith("Logged Out", { description: "You have been logged out successfully" });
  });
});

describe("returnPath", () => {
  it("follows only portal paths back", () => {
    expect(returnPath({ from: "/client?renew=1" })).toBe("/client?renew=1");
    expect(returnPath({ from: "/payment-history?receipt=SD_1" })).toBe("/payment-history?receipt=SD_1");
    expect(returnPath({ from: "/account-management" })).toBe("/account-management");
    expect(returnPath({ from: "/client/login" })).toBe("/client");
    expect(returnPath({ from: "https://evil.example/client" })).toBe("/client");
    expect(returnPath({ from: "/admin" })).toBe("/client");
    expect(returnPath(null)).toBe("/client");
  });
});
