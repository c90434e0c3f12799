// The release editor (EditorDialog, through the catalogue's FormDialog): the shared schema's
// message beside its field before anything is sent, then the release created.
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, getByRoleName, waitFor } from "@/web/testing/render";
import { fieldError, inputByLabel, renderWithClient, stubApi, typeInto } from "../../catalogue/components/test-helpers";
import { ReleasesSection } from "./releases-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("the release editor", () => {
  it("shows the schema's message beside the field, then creates the release", async () => {
    const requests = stubApi({
      "/api/admin/releases": { body: { data: [] } },
      "POST /api/admin/releases": { status: 201, body: { id: "r1" } },
    });
    await renderWithClient(<ReleasesSection />);
    await click(getByRoleName(document.body, "button", "New release"));
    await click(getByRoleName(document.body, "button", "Create"));
    await waitFor(() => expect(fieldError(inputByLabel(document.body, "Version"))).toBeTruthy());
    expect(requests.filter((r) => r.method === "POST")).toEqual([]);

    await typeInto(inputByLabel(document.body, "Version"), "2.4.0");
    await typeInto(inputByLabel(document.body, "Release date"), "2025-06-01");
    await typeInto(inputByLabel(document.body, "Title"), "Faster guide");
    await click(getByRoleName(document.body, "button", "Create"));
    await waitFor(() => expect(requests.filter((r) => r.method === "POST")).toHaveLength(1));
    expect(requests.find((r) => r.method === "POST")?.body).toMatchObject({ version: "2.4.0", title: "Faster guide" });
    await waitFor(() => expect(document.body.querySelector("[role=dialog]")).toBeNull());
  });
});
