// A catalogue page through ResourcePage (the packages): the rows in the table, 'New package' and
// a row's Edit open their form, and the order buttons send the new order.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Package } from "@/shared/api";
import { cleanup, click, getByRoleName, waitFor } from "@/web/testing/render";
import { PackagesSection } from "../packages/packages-section";
import { renderWithClient, stubApi } from "./test-helpers";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

const pkg = (id: string, name: string): Package =>
  ({
    id,
    name,
    price: 450,
    duration: name,
    duration_months: 3,
    features: [],
    description: "",
    is_active: true,
    is_featured: false,
  }) as unknown as Package;
const byLabel = (label: string) =>
  waitFor(() => {
    const found = document.body.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`);
    if (!found) throw new Error(`no button labelled ${label}`);
    return found;
  });
const dialogTitle = () => document.body.querySelector("[role=dialog] h2")?.textContent;

describe("ResourcePage", () => {
  it("lists the rows, opens the new and the edit form, and sends a new order", async () => {
    const requests = stubApi({
      "/api/admin/packages": { body: { data: [pkg("p1", "1 Month"), pkg("p3", "3 Months")] } },
      "POST /api/admin/packages/reorder": { body: { data: [] } },
    });
    await renderWithClient(<PackagesSection />);

    await click(getByRoleName(document.body, "button", "New package"));
    await waitFor(() => expect(dialogTitle()).toBe("New package"));
    await click(getByRoleName(document.body, "button", "Cancel"));
    await waitFor(() => expect(document.body.querySelector("[role=dialog]")).toBeNull());

    await click(await byLabel("Edit 3 Months"));
    await waitFor(() => expect(dialogTitle()).toBe("Edit 3 Months"));
    await click(getByRoleName(document.body, "button", "Cancel"));
    await waitFor(() => expect(document.body.querySelector("[role=dialog]")).toBeNull());

    const down = document.body.querySelectorAll<HTMLButtonElement>('button[aria-label="Move 1 Month down"]');
    expect(down.length).toBeGreaterThan(0);
    await click(down[0] as HTMLButtonElement);
    await waitFor(() => expect(requests.filter((r) => r.method === "POST")).toHaveLength(1));
    expect(requests.find((r) => r.method === "POST")).toMatchObject({ path: "/api/admin/packages/reorder", body: { ids: ["p3", "p1"] } });
  });
});
