// The clients list marks a client flagged as a possible duplicate (issue 24), so the owner sees
// who needs a merge-or-dismiss decision without opening every client.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { AdminClient } from "@/shared/business-schemas";
import { cleanup, waitFor } from "@/web/testing/render";
import { renderWithClient, stubApi } from "../catalogue/components/test-helpers";
import { ClientsSection } from "./clients-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const row = (id: string, full_name: string, overrides: Partial<AdminClient> = {}): AdminClient => ({
  id,
  username: id,
  full_name,
  email: "",
  whatsapp: "27821234567",
  communication_method: "whatsapp",
  marketing_opt_in: false,
  marketing_opt_in_at: null,
  package_id: null,
  package_name: "Month to Month",
  status: "active",
  subscription_start: "2026-11-01T10:00:00.000Z",
  subscription_end: "2027-02-01T10:00:00.000Z",
  device: "firestick",
  internet_platform: "fibre",
  line_username: "",
  line_password: "",
  line_portal_url: "",
  panel_line_id: null,
  line_expires_at: null,
  line_enabled: false,
  line_is_test: false,
  line_sync_issue: "",
  line_type: "m3u",
  line_mac: "",
  possible_duplicate_of: null,
  merged_into: null,
  notes: "",
  created_at: "2026-11-01T10:00:00.000Z",
  updated_at: "2026-11-01T10:00:00.000Z",
  ...overrides,
});

beforeEach(() => {
  vi.stubGlobal("matchMedia", (query: string) => ({ matches: true, media: query, addEventListener() {}, removeEventListener() {} }));
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("the clients list", () => {
  it("badges a flagged possible duplicate, and only that one", async () => {
    stubApi({
      "/api/admin/clients": {
        body: {
          data: [row("kept", "Thandi Mokoena"), row("dup", "T Mokoena", { possible_duplicate_of: "kept" })],
          total: 2,
        },
      },
    });
    const { container } = await renderWithClient(<ClientsSection />, "/admin/clients");
    const rows = await waitFor(() => {
      const found = [...container.querySelectorAll("tbody tr")];
      if (found.length < 2) throw new Error("no rows yet");
      return found;
    });
    const byName = (name: string) => rows.find((r) => r.textContent?.includes(name)) as HTMLElement;
    expect(byName("T Mokoena").querySelector("[data-testid=possible-duplicate]")?.textContent).toBe("Possible duplicate");
    expect(byName("Thandi Mokoena").querySelector("[data-testid=possible-duplicate]")).toBeNull();
  });
});
