import { QueryClientProvider } from "@tanstack/react-query";
import { act } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toast } from "@/web/lib/toast";
import { cleanup, click, getByRoleName, render, testQueryClient, waitFor } from "@/web/testing/render";
import { MyAccountSection } from "./my-account-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock("../session/admin-session", () => ({
  useAdminSession: () => ({
    session: { status: "authenticated", admin: { id: "a1", email: "owner@example.co.za", name: "Owner" }, expiresAt: "" },
  }),
}));

let posted: unknown[];
let answer: { status: number; body: unknown };

beforeEach(() => {
  posted = [];
  answer = { status: 200, body: { success: true } };
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname;
    if (path === "/api/admin/password" && init?.method === "POST") {
      posted.push(JSON.parse(String(init.body)));
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "content-type": "application/json" } });
    }
    return new Response(JSON.stringify({ error: { code: "not_found", message: "Not found." } }), { status: 404 });
  });
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});

const page = () => document.body;

async function type(label: string, value: string) {
  const lab = [...page().querySelectorAll("label")].find((l) => l.textContent?.replace("*", "").trim() === label);
  const input = lab && document.getElementById(lab.htmlFor);
  if (!(input instanceof HTMLInputElement)) throw new Error(`no input labelled ${label}`);
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  await act(async () => {
    setter?.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  return input;
}

/** The message tied to an input by aria-describedby (its error). */
const errorOf = (input: HTMLInputElement) => {
  const id = input
    .getAttribute("aria-describedby")
    ?.split(" ")
    .find((x) => x.endsWith("-error"));
  return id ? document.getElementById(id)?.textContent : undefined;
};

const renderSection = () =>
  render(
    <QueryClientProvider client={testQueryClient()}>
      <MemoryRouter>
        <MyAccountSection />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe("MyAccountSection: change password", () => {
  it("shows the server's refusal of a wrong current password beside that field", async () => {
    answer = {
      status: 400,
      body: {
        error: {
          code: "validation",
          message: "Your current password is not correct",
          fields: { currentPassword: "Your current password is not correct" },
        },
      },
    };
    await renderSection();
    expect(page().textContent).toContain("owner@example.co.za");
    const current = await type("Current password", "wrong-password-1");
    await type("New password", "brand-New-pass-42");
    await type("New password again", "brand-New-pass-42");
    await click(getByRoleName(page(), "button", "Change password"));

    await waitFor(() => expect(current.getAttribute("aria-invalid")).toBe("true"));
    expect(errorOf(current)).toBe("Your current password is not correct");
    expect(posted).toEqual([{ currentPassword: "wrong-password-1", newPassword: "brand-New-pass-42" }]);
    expect(toast.error).toHaveBeenCalledWith("Password not changed", { description: "Your current password is not correct" });
  });

  it("checks the new password with the shared rules and the repeat before sending", async () => {
    await renderSection();
    await type("Current password", "old-password-1");
    const next = await type("New password", "short");
    const again = await type("New password again", "different");
    await click(getByRoleName(page(), "button", "Change password"));
    await waitFor(() => expect(next.getAttribute("aria-invalid")).toBe("true"));
    expect(errorOf(next)).toMatch(/at least 10 characters/);
    expect(errorOf(again)).toBe("The two new passwords don't match");
    expect(posted).toEqual([]);
  });

  it("changes the password, clears the form and says so", async () => {
    await renderSection();
    const current = await type("Current password", "old-password-1");
    await type("New password", "brand-New-pass-42");
    await type("New password again", "brand-New-pass-42");
    await click(getByRoleName(page(), "button", "Change password"));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Password changed", expect.anything()));
    expect(current.value).toBe("");
  });
});
