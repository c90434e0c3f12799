import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RESET_REQUESTED_MESSAGE } from "@/shared/client-schemas";
import { cleanup, click, getByRoleName, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { ClientPasswordResetPage } from "./client-password-reset-page";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
const { toast } = await import("@/web/lib/toast");

const routes = [
  { path: "/client-password-reset", Component: ClientPasswordResetPage },
  { path: "/client/login", Component: () => <p>Sign-in page</p> },
];

function type(input: HTMLInputElement | null, value: string) {
  if (!input) throw new Error("no input");
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  setter?.call(input, value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

async function requestFor(identifier: string) {
  const api = stubFetch({ "/client/password-reset/request": { body: { success: true, message: RESET_REQUESTED_MESSAGE } } });
  vi.stubGlobal("fetch", api.fetch);
  const { rendered } = renderRoutes(routes, "/client-password-reset");
  const { container, unmount } = await rendered;
  await act(async () => type(container.querySelector<HTMLInputElement>("#reset-identifier"), identifier));
  await click(getByRoleName(container, "button", "Send reset link"));
  await waitFor(() => expect(container.querySelector("[role=status]")).not.toBeNull());
  const text = container.querySelector("[role=status]")?.textContent ?? "";
  await unmount();
  return { text, calls: api.calls };
}

describe("asking for a reset link", () => {
  it("answers the same words for a known account and for an unknown one", async () => {
    const known = await requestFor("thandi");
    const unknown = await requestFor("nobody@example.test");
    expect(known.text).toContain(RESET_REQUESTED_MESSAGE);
    expect(unknown.text).toBe(known.text);
    expect(known.calls).toContain("/client/password-reset/request");
  });

  it("asks for a username or e-mail before calling the server", async () => {
    const api = stubFetch({});
    vi.stubGlobal("fetch", api.fetch);
    const { rendered } = renderRoutes(routes, "/client-password-reset");
    const { container } = await rendered;
    await click(getByRoleName(container, "button", "Send reset link"));
    await waitFor(() =>
      expect(container.querySelector("#reset-identifier-error")?.textContent).toBe("Please enter your username or e-mail address"),
    );
    expect(api.calls).toEqual([]);
  });
});

describe("choosing a new password from the link", () => {
  const TOKEN = "a".repeat(43);

  it("shows the server's field error, then sends the client to sign in on success", async () => {
    let attempt = 0;
    const sent: unknown[] = [];
    vi.stubGlobal("fetch", async (_input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      attempt++;
      const body =
        attempt === 1
          ? { error: { code: "validation", message: "Password is too common", fields: { password: "Password is too common" } } }
          : { success: true, message: "Your password has been changed. Please sign in with your new password." };
      return new Response(JSON.stringify(body), { status: attempt === 1 ? 400 : 200, headers: { "content-type": "application/json" } });
    });
    const { router, rendered } = renderRoutes(routes, `/client-password-reset?token=${TOKEN}`);
    const { container } = await rendered;
    expect(container.querySelector("h1")?.textContent).toBe("Choose a new password");

    // The shared strength rules, before any call.
    await act(async () => {
      type(container.querySelector<HTMLInputElement>("#reset-password"), "short");
      type(container.querySelector<HTMLInputElement>("#reset-confirm"), "short");
    });
    await click(getByRoleName(container, "button", "Set new password"));
    await waitFor(() =>
      expect(container.querySelector("#reset-password-error")?.textContent).toBe("Password must be at least 10 characters"),
    );
    expect(sent).toEqual([]);

    await act(async () => {
      type(container.querySelector<HTMLInputElement>("#reset-password"), "Correct-horse-42");
      type(container.querySelector<HTMLInputElement>("#reset-confirm"), "Correct-horse-42");
    });
    await click(getByRoleName(container, "button", "Set new password"));
    await waitFor(() => expect(container.querySelector("#reset-password-error")?.textContent).toBe("Password is too common"));

    await click(getByRoleName(container, "button", "Set new password"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/client/login"));
    expect(sent[1]).toEqual({ token: TOKEN, password: "Correct-horse-42" });
    expect(toast.success).toHaveBeenCalledWith("Password Changed", {
      description: "Your password has been changed. Please sign in with your new password.",
    });
  });

  it("explains a dead link and offers a new one", async () => {
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "/client/password-reset/confirm": {
          status: 400,
          body: { error: { code: "invalid_token", message: "This reset link is invalid or has expired. Please ask for a new one." } },
        },
      }).fetch,
    );
    const { rendered } = renderRoutes(routes, `/client-password-reset?token=${TOKEN}`);
    const { container } = await rendered;
    await act(async () => {
      type(container.querySelector<HTMLInputElement>("#reset-password"), "Correct-horse-42");
      type(container.querySelector<HTMLInputElement>("#reset-confirm"), "Correct-horse-42");
    });
    await click(getByRoleName(container, "button", "Set new password"));
    await waitFor(() => expect(container.querySelector("[role=alert]")?.textContent).toContain("invalid or has expired"));
    expect(getByRoleName(container, "link", "Ask for a new link")).not.toBeNull();
  });
});
