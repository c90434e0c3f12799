import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, getByRoleName, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { AdminLayout } from "./admin-layout";
import { AdminLoginPage, returnPath } from "./admin-login-page";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
const { toast } = await import("@/web/lib/toast");

const SESSION = { success: true, admin: { id: "a1", email: "owner@example.test", name: "Owner" }, expiresAt: "2026-11-23T10:00:00.000Z" };
const NO_SESSION = { status: 401, body: { error: { code: "unauthorized", message: "Please sign in as an admin." } } };

const routes = [
  {
    path: "/admin",
    Component: AdminLayout,
    children: [
      { path: "login", Component: AdminLoginPage },
      { index: true, Component: () => <p>Dashboard home</p> },
      { path: "leads", Component: () => <p>Leads page</p> },
    ],
  },
];

function type(input: HTMLInputElement | null, value: string) {
  if (!input) throw new Error("no input");
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  setter?.call(input, value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

async function signInWith(container: HTMLElement, email: string, password: string) {
  await act(async () => {
    type(container.querySelector<HTMLInputElement>("#admin-email"), email);
    type(container.querySelector<HTMLInputElement>("#admin-password"), password);
  });
  await click(getByRoleName(container, "button", "Sign In"));
}

/** A login route that answers `login` and, once it succeeded, a live session. */
function stubLogin(login: { status?: number; body: unknown }) {
  let signedIn = false;
  return stubFetch({
    "/admin/session": () => (signedIn ? { body: SESSION } : NO_SESSION),
    "/admin/login": () => {
      if (!login.status || login.status < 400) signedIn = true;
      return login;
    },
    "/branding": { body: { data: { company_name: "StreamDesk" } } },
  });
}

beforeEach(() => {
  vi.stubGlobal("EventSource", undefined);
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("admin sign-in", () => {
  it("sends a signed-out admin from a dashboard page to /admin/login, and back there after signing in", async () => {
    vi.stubGlobal("fetch", stubLogin({ body: SESSION }).fetch);
    const { router, rendered } = renderRoutes(routes, "/admin/leads?status=new");
    const { container } = await rendered;
    await waitFor(() => expect(router.state.location.pathname).toBe("/admin/login"));
    await waitFor(() => expect(container.querySelector("#admin-email")).not.toBeNull());
    expect(container.querySelector("h1")?.textContent).toBe("Admin Login");

    await signInWith(container, "owner@example.test", "right-password");
    await waitFor(() => expect(container.textContent).toContain("Leads page"));
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe("/admin/leads?status=new");
    expect(toast.success).toHaveBeenCalledWith("Login Successful", { description: "Welcome back to the admin dashboard" });
  });

  it("goes to /admin after a sign-in that came from nowhere in particular", async () => {
    vi.stubGlobal("fetch", stubLogin({ body: SESSION }).fetch);
    const { router, rendered } = renderRoutes(routes, "/admin/login");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#admin-email")).not.toBeNull());
    await signInWith(container, "owner@example.test", "right-password");
    await waitFor(() => expect(container.textContent).toContain("Dashboard home"));
    expect(router.state.location.pathname).toBe("/admin");
  });

  it("says 'Login Failed' / 'Invalid email or password' on a 401 and stays on the form", async () => {
    vi.stubGlobal(
      "fetch",
      stubLogin({ status: 401, body: { error: { code: "invalid_credentials", message: "Invalid email or password" } } }).fetch,
    );
    const { router, rendered } = renderRoutes(routes, "/admin/login");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#admin-email")).not.toBeNull());
    await signInWith(container, "owner@example.test", "wrong");
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Login Failed", { description: "Invalid email or password" }));
    expect(router.state.location.pathname).toBe("/admin/login");
    expect(toast.success).not.toHaveBeenCalled();
  });

  it("passes on the server's message when sign-ins are rate limited (429)", async () => {
    const message = "Too many sign-in attempts. Please wait a minute and try again.";
    vi.stubGlobal("fetch", stubLogin({ status: 429, body: { error: { code: "rate_limited", message } } }).fetch);
    const { rendered } = renderRoutes(routes, "/admin/login");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#admin-email")).not.toBeNull());
    await signInWith(container, "owner@example.test", "again");
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith("Login Failed", { description: message }));
  });

  it("says 'Login Error' for anything unexpected", async () => {
    vi.stubGlobal("fetch", stubLogin({ status: 500, body: { error: { code: "internal", message: "Something broke." } } }).fetch);
    const { rendered } = renderRoutes(routes, "/admin/login");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#admin-email")).not.toBeNull());
    await signInWith(container, "owner@example.test", "pw");
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith("Login Error", { description: "An unexpected error occurred during login" }),
    );
  });

  it("shows 'Signing in...' on a disabled button while the sign-in is under way", async () => {
    let release: () => void = () => {};
    const api = stubLogin({ body: SESSION });
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      if (String(input).includes("/admin/login")) await new Promise<void>((resolve) => (release = resolve));
      return api.fetch(input, init);
    });
    const { rendered } = renderRoutes(routes, "/admin/login");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#admin-email")).not.toBeNull());
    await signInWith(container, "owner@example.test", "pw");
    const button = await waitFor(() => getByRoleName(container, "button", "Signing in..."));
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());
    await waitFor(() => expect(container.textContent).toContain("Dashboard home"));
  });

  it("asks for both fields before calling the server", async () => {
    const api = stubLogin({ body: SESSION });
    vi.stubGlobal("fetch", api.fetch);
    const { rendered } = renderRoutes(routes, "/admin/login");
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector("#admin-email")).not.toBeNull());
    await click(getByRoleName(container, "button", "Sign In"));
    await waitFor(() => expect(container.querySelector("#admin-password-error")?.textContent).toBe("Please enter your password"));
    expect(container.querySelector("#admin-email")?.getAttribute("aria-invalid")).toBe("true");
    expect(api.calls).not.toContain("/admin/login");
  });
});

describe("returnPath", () => {
  it("follows only dashboard paths back", () => {
    expect(returnPath({ from: "/admin/payments?status=pending" })).toBe("/admin/payments?status=pending");
    expect(returnPath({ from: "/admin/login" })).toBe("/admin");
    expect(returnPath({ from: "https://evil.example/admin" })).toBe("/admin");
    expect(returnPath({ from: "/pricing" })).toBe("/admin");
    expect(returnPath(null)).toBe("/admin");
  });
});
