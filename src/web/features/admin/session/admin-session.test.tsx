import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { apiGet } from "@/web/lib/api";
import { cleanup, click, render, stubFetch, testQueryClient, waitFor } from "@/web/testing/render";
import { AdminSessionProvider, LEGACY_ADMIN_STORAGE_KEYS, useAdminSession } from "./admin-session";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
const { toast } = await import("@/web/lib/toast");

const ADMIN = { id: "a1", email: "owner@example.test", name: "Owner" };
const SESSION = { success: true, admin: ADMIN, expiresAt: "2026-11-23T10:00:00.000Z" };

function Probe() {
  const { session, signIn, signOut } = useAdminSession();
  return (
    <div>
      <p data-testid="status">{session.status}</p>
      <p data-testid="email">{session.admin?.email ?? ""}</p>
      <button type="button" onClick={() => signIn({ email: "owner@example.test", password: "secret" }).catch(() => {})}>
        sign in
      </button>
      <button type="button" onClick={() => signOut()}>
        sign out
      </button>
    </div>
  );
}

/** An admin list, as any section would load it (once signed in, as inside the wrapper). */
function LeadsProbe() {
  const { session } = useAdminSession();
  useQuery({
    queryKey: ["admin", "leads", "list"],
    queryFn: () => apiGet("/admin/leads"),
    retry: false,
    enabled: session.status === "authenticated",
  });
  return null;
}

async function mount({ withList = false } = {}) {
  const rendered = await render(
    <QueryClientProvider client={testQueryClient()}>
      <AdminSessionProvider>
        <Probe />
        {withList ? <LeadsProbe /> : null}
      </AdminSessionProvider>
    </QueryClientProvider>,
  );
  const status = () => rendered.container.querySelector("[data-testid=status]")?.textContent;
  const button = (name: string) => [...rendered.container.querySelectorAll("button")].find((b) => b.textContent === name) ?? null;
  return { rendered, status, button };
}

const fillLegacyStorage = () => {
  for (const key of LEGACY_ADMIN_STORAGE_KEYS) localStorage.setItem(key, "old");
};
const legacyLeft = () => LEGACY_ADMIN_STORAGE_KEYS.filter((key) => localStorage.getItem(key) !== null);

beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  localStorage.clear();
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("AdminSessionProvider", () => {
  it("is loading until the session check answers, then authenticated with the admin", async () => {
    let answer: (value: Response) => void = () => {};
    vi.stubGlobal("fetch", () => new Promise<Response>((resolve) => (answer = resolve)));
    const { status, rendered } = await mount();
    expect(status()).toBe("loading");
    answer(new Response(JSON.stringify(SESSION), { status: 200, headers: { "content-type": "application/json" } }));
    await waitFor(() => expect(status()).toBe("authenticated"));
    expect(rendered.container.querySelector("[data-testid=email]")?.textContent).toBe("owner@example.test");
  });

  it("is unauthenticated when the session check answers 401", async () => {
    const api = stubFetch({
      "/admin/session": { status: 401, body: { error: { code: "unauthorized", message: "Please sign in as an admin." } } },
    });
    vi.stubGlobal("fetch", api.fetch);
    const { status } = await mount();
    await waitFor(() => expect(status()).toBe("unauthenticated"));
    expect(api.calls).toEqual(["/admin/session"]);
  });

  it("treats a failed check (server error or no connection) as unauthenticated, without retrying", async () => {
    let calls = 0;
    vi.stubGlobal("fetch", async () => {
      calls += 1;
      throw new TypeError("Failed to fetch");
    });
    const { status } = await mount();
    await waitFor(() => expect(status()).toBe("unauthenticated"));
    expect(calls).toBe(1);
  });

  it("signs in: authenticated, and the old locally stored token, e-mail and expiry are cleared", async () => {
    fillLegacyStorage();
    let signedIn = false;
    const api = stubFetch({
      "/admin/session": () =>
        signedIn ? { body: SESSION } : { status: 401, body: { error: { code: "unauthorized", message: "Please sign in as an admin." } } },
      "/admin/login": () => {
        signedIn = true;
        return { body: SESSION };
      },
    });
    vi.stubGlobal("fetch", api.fetch);
    const { status, button } = await mount();
    await waitFor(() => expect(status()).toBe("unauthenticated"));
    await click(button("sign in"));
    await waitFor(() => expect(status()).toBe("authenticated"));
    expect(legacyLeft()).toEqual([]);
  });

  it("signs out even when the logout call fails, clearing storage and toasting 'Logged Out'", async () => {
    const api = stubFetch({
      "/admin/session": { body: SESSION },
      "/admin/logout": { status: 503, body: { error: { code: "unavailable", message: "Database down." } } },
    });
    vi.stubGlobal("fetch", api.fetch);
    const { status, button } = await mount();
    await waitFor(() => expect(status()).toBe("authenticated"));
    fillLegacyStorage();
    await click(button("sign out"));
    await waitFor(() => expect(status()).toBe("unauthenticated"));
    expect(api.calls).toContain("/admin/logout");
    expect(legacyLeft()).toEqual([]);
    expect(toast.success).toHaveBeenCalledWith("Logged Out", { description: "You have been logged out successfully" });
  });

  it("ends the session when an admin list answers 401 (expired or revoked elsewhere)", async () => {
    const api = stubFetch({
      "/admin/session": { body: SESSION },
      "/admin/leads": { status: 401, body: { error: { code: "unauthorized", message: "Please sign in as an admin." } } },
    });
    vi.stubGlobal("fetch", api.fetch);
    const { status } = await mount({ withList: true });
    await waitFor(() => expect(api.calls).toContain("/admin/leads"));
    await waitFor(() => expect(status()).toBe("unauthenticated"));
  });
});
