import { QueryClientProvider } from "@tanstack/react-query";
import { act } from "react";
import { MemoryRouter } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { toast } from "@/web/lib/toast";
import { cleanup, click, getByRoleName, render, testQueryClient, waitFor } from "@/web/testing/render";
import { AdminsSection } from "./admins-section";
import type { AdminAccount } from "./api/get-admins";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock("../session/admin-session", () => ({
  useAdminSession: () => ({
    session: { status: "authenticated", admin: { id: OWNER.id, email: OWNER.email, name: OWNER.name }, expiresAt: "" },
  }),
}));

const OWNER: AdminAccount = {
  id: "11111111-1111-4111-8111-111111111111",
  email: "owner@example.co.za",
  name: "Owner",
  created_at: "2026-01-01T08:00:00.000Z",
  updated_at: "2026-01-01T08:00:00.000Z",
};
const HELPER: AdminAccount = { ...OWNER, id: "22222222-2222-4222-8222-222222222222", email: "helper@example.co.za", name: "Helper" };

let admins: AdminAccount[];
let deletes: string[];
let patches: unknown[];

beforeEach(() => {
  admins = [HELPER, OWNER];
  deletes = [];
  patches = [];
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input), "http://localhost").pathname;
    const method = init?.method ?? "GET";
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    if (method === "GET" && path === "/api/admin/admins") return json(200, { data: admins });
    const match = /^\/api\/admin\/admins\/(.+)$/.exec(path);
    if (method === "PATCH" && match) {
      const patch = JSON.parse(String(init?.body)) as Partial<AdminAccount>;
      patches.push(patch);
      if (admins.some((a) => a.id !== match[1] && a.email === patch.email)) {
        const message = "Another admin already uses this email address";
        return json(409, { error: { code: "conflict", message, fields: { email: message } } });
      }
      admins = admins.map((a) => (a.id === match[1] ? { ...a, ...patch } : a));
      return json(
        200,
        admins.find((a) => a.id === match[1]),
      );
    }
    if (method === "DELETE" && match) {
      deletes.push(match[1]);
      if (admins.length <= 1) return json(409, { error: { code: "conflict", message: "You cannot remove the last admin." } });
      admins = admins.filter((a) => a.id !== match[1]);
      return json(200, { success: true });
    }
    return json(404, { error: { code: "not_found", message: "Not found." } });
  });
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});

const page = () => document.body;
const button = (label: string) =>
  waitFor(() => {
    const found = page().querySelector<HTMLButtonElement>(`button[aria-label='${label}']`);
    if (!found) throw new Error(`no button ${label}`);
    return found;
  });
const dialog = () => page().querySelector("[role=dialog]");

async function type(label: string, value: string) {
  const lab = [...(dialog()?.querySelectorAll("label") ?? [])].find((l) => l.textContent?.replace("*", "").trim() === label);
  const input = lab && document.getElementById(lab.htmlFor);
  if (!(input instanceof HTMLInputElement)) throw new Error(`no input labelled ${label}`);
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
  await act(async () => {
    setter?.call(input, value);
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  return input;
}

describe("AdminsSection", () => {
  it("removes an admin after confirming, then shows the server's refusal to remove the last one", async () => {
    await render(
      <QueryClientProvider client={testQueryClient()}>
        <MemoryRouter>
          <AdminsSection />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await waitFor(() => expect(page().textContent).toContain("helper@example.co.za"));
    expect(page().textContent).toContain("You");

    // asks first: nothing is deleted until confirmed
    await click(await button("Remove Helper"));
    await waitFor(() => expect(dialog()?.textContent).toContain("Remove Helper?"));
    expect(deletes).toEqual([]);
    await click(getByRoleName(dialog() as HTMLElement, "button", "Remove"));
    await waitFor(() => expect(deletes).toEqual([HELPER.id]));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith("Admin removed", expect.anything()));
    await waitFor(() => expect(page().textContent).not.toContain("helper@example.co.za"));

    // the last admin: the server refuses, and its message shows in the dialog
    await click(await button("Remove Owner"));
    await waitFor(() => expect(dialog()?.textContent).toContain("Remove yourself?"));
    await click(getByRoleName(dialog() as HTMLElement, "button", "Remove"));
    await waitFor(() => expect(dialog()?.querySelector("[role=alert]")?.textContent).toBe("You cannot remove the last admin."));
    expect(toast.error).toHaveBeenCalledWith("Admin not removed", { description: "You cannot remove the last admin." });
    expect(page().textContent).toContain("owner@example.co.za");
  });

  it("edits an admin's name and e-mail, showing the server's refusal of a taken address beside the field", async () => {
    await render(
      <QueryClientProvider client={testQueryClient()}>
        <MemoryRouter>
          <AdminsSection />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await click(await button("Edit Helper"));
    await waitFor(() => expect(dialog()?.textContent).toContain("Edit Helper"));
    const email = await type("Email", "owner@example.co.za");
    await click(getByRoleName(dialog() as HTMLElement, "button", "Save"));
    await waitFor(() =>
      expect(document.getElementById(email.getAttribute("aria-describedby")?.split(" ")[0] ?? "")?.textContent).toContain("already uses"),
    );
    expect(toast.error).toHaveBeenCalledWith("Admin not saved", { description: "Another admin already uses this email address" });

    await type("Name", "Helper Two");
    await type("Email", "helper.two@example.co.za");
    await click(getByRoleName(dialog() as HTMLElement, "button", "Save"));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith("Admin saved", { description: "Helper Two signs in as helper.two@example.co.za." }),
    );
    expect(patches.at(-1)).toEqual({ name: "Helper Two", email: "helper.two@example.co.za" });
    await waitFor(() => expect(page().textContent).toContain("helper.two@example.co.za"));
    expect(dialog()).toBeNull();
  });
});
