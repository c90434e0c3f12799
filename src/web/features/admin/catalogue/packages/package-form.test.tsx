import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, getByRoleName, waitFor } from "@/web/testing/render";
import { fieldError, inputByLabel, renderWithClient, stubApi, typeInto } from "../components/test-helpers";
import { PackageFormDialog } from "./package-form";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const body = () => document.body;

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("PackageFormDialog", () => {
  it("checks the fields with the shared schema before sending anything", async () => {
    const requests = stubApi({});
    await renderWithClient(<PackageFormDialog open onOpenChange={() => {}} />);
    await typeInto(inputByLabel(body(), "Price (R)"), "abc");
    await click(getByRoleName(body(), "button", "Create package"));

    await waitFor(() => expect(fieldError(inputByLabel(body(), "Name"))).toBe("Please enter a package name"));
    expect(fieldError(inputByLabel(body(), "Price (R)"))).toBe("Price must be an amount in rand");
    expect(fieldError(inputByLabel(body(), "Duration"))).toMatch(/Please enter a duration/);
    expect(inputByLabel(body(), "Name").getAttribute("aria-invalid")).toBe("true");
    expect(requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("sends the package with its features, and shows the server's field error beside the field", async () => {
    const requests = stubApi({
      "POST /api/admin/packages": {
        status: 409,
        body: {
          error: {
            code: "conflict",
            message: "Another package already uses this name",
            fields: { name: "Another package already uses this name" },
          },
        },
      },
    });
    await renderWithClient(<PackageFormDialog open onOpenChange={() => {}} />);
    await typeInto(inputByLabel(body(), "Name"), "Weekend Pass");
    await typeInto(inputByLabel(body(), "Price (R)"), "99.50");
    await typeInto(inputByLabel(body(), "Duration"), "1 Week");
    await typeInto(body().querySelector<HTMLInputElement>("input[aria-label='New feature']") as HTMLInputElement, "Sport");
    await click(getByRoleName(body(), "button", "Add"));
    await click(getByRoleName(body(), "button", "Create package"));

    await waitFor(() => expect(fieldError(inputByLabel(body(), "Name"))).toBe("Another package already uses this name"));
    const post = requests.find((r) => r.method === "POST");
    expect(post?.path).toBe("/api/admin/packages");
    expect(post?.body).toMatchObject({
      name: "Weekend Pass",
      price: 99.5,
      duration: "1 Week",
      duration_months: 1,
      features: ["Sport"],
      is_active: true,
    });
    expect(fieldError(inputByLabel(body(), "Price (R)"))).toBeNull();
  });
});
