// The catalogue's create/edit forms on useCatalogueForm: the shared schema's messages beside the
// fields, what is posted (an edit: only what changed), and the server's refusal beside its field.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Package } from "@/shared/api";
import { cleanup, click, getByRoleName, waitFor } from "@/web/testing/render";
import { BannersSection } from "../banners/banners-section";
import { SettingsSection } from "../branding/settings-section";
import { SpecialFormDialog } from "../specials/special-form";
import { TestimonialsSection } from "../testimonials/testimonials-section";
import { fieldError, inputByLabel, type Recorded, renderWithClient, stubApi, typeInto } from "./test-helpers";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const body = () => document.body;
const labelled = (label: string) =>
  waitFor(() => {
    const found = body().querySelector<HTMLElement>(`button[aria-label="${label}"]`);
    if (!found) throw new Error(`no button labelled ${label}`);
    return found;
  });
const writes = (requests: Recorded[]) => requests.filter((r) => r.method !== "GET");

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

const pkg = { id: "p1", name: "3 Months", price: 450 } as Package;
const banner = { id: "b1", title: "Winter deal", content: "", banner_type: "info", sort_order: 0, is_active: true };

describe("the catalogue forms", () => {
  it("special: a listed package fills in its price; the schema's rule shows beside the field and nothing is sent", async () => {
    const requests = stubApi({ "POST /api/admin/specials": { status: 201, body: { id: "s1" } } });
    await renderWithClient(<SpecialFormDialog packages={[pkg]} open onOpenChange={() => {}} />);
    await typeInto(inputByLabel(body(), "Package name"), "3 Months");
    expect(inputByLabel(body(), "Original price (R)").value).toBe("450");
    await typeInto(inputByLabel(body(), "Special price (R)"), "500");
    await click(getByRoleName(body(), "button", "Create special"));

    await waitFor(() =>
      expect(fieldError(inputByLabel(body(), "Special price (R)"))).toBe("The special price must be lower than the original price"),
    );
    expect(writes(requests)).toEqual([]);

    await typeInto(inputByLabel(body(), "Special price (R)"), "399");
    await click(getByRoleName(body(), "button", "Create special"));
    await waitFor(() => expect(writes(requests)).toHaveLength(1));
    expect(writes(requests)[0]?.body).toMatchObject({ package_name: "3 Months", original_price: 450, special_price: 399 });
  });

  it("banner: an edit sends only what changed, and the server's refusal shows beside its field", async () => {
    const requests = stubApi({
      "/api/admin/banners": { body: { data: [banner] } },
      "PATCH /api/admin/banners/b1": {
        status: 409,
        body: { error: { code: "conflict", message: "That title is taken", fields: { title: "That title is taken" } } },
      },
    });
    await renderWithClient(<BannersSection />);
    await click(await labelled("Edit Winter deal"));
    await typeInto(inputByLabel(body(), "Title"), "Summer deal");
    await typeInto(inputByLabel(body(), "Order"), "3");
    await click(getByRoleName(body(), "button", "Save changes"));

    await waitFor(() => expect(fieldError(inputByLabel(body(), "Title"))).toBe("That title is taken"));
    expect(writes(requests).map((r) => r.body)).toEqual([{ title: "Summer deal", sort_order: 3 }]);
  });

  it("testimonial: an edit that changed nothing sends nothing and closes", async () => {
    const requests = stubApi({
      "/api/admin/testimonials": {
        body: {
          data: [
            {
              id: "t1",
              client_name: "Thandi",
              location: "Soweto",
              content: "Great service",
              rating: 5,
              sort_order: 0,
              is_approved: true,
              is_published: true,
              is_featured: false,
              created_at: "2025-01-01T00:00:00Z",
            },
          ],
        },
      },
    });
    await renderWithClient(<TestimonialsSection />);
    await click(await labelled("Edit Thandi's testimonial"));
    await click(getByRoleName(body(), "button", "Save changes"));

    await waitFor(() => expect(body().querySelector("[role=dialog]")).toBeNull());
    expect(writes(requests)).toEqual([]);
  });

  it("setting: a new key is checked by the shared schema, then upserted by key", async () => {
    const requests = stubApi({
      "/api/admin/settings": { body: { data: [] } },
      "POST /api/admin/settings": { status: 201, body: { id: "k1", key: "promo_line", value: "Hi", description: "", is_active: true } },
    });
    await renderWithClient(<SettingsSection />);
    await click(getByRoleName(body(), "button", "New setting"));
    await click(getByRoleName(body(), "button", "Save"));
    await waitFor(() => expect(fieldError(inputByLabel(body(), "Key"))).toBeTruthy());
    expect(writes(requests)).toEqual([]);

    await typeInto(inputByLabel(body(), "Key"), "promo_line");
    await typeInto(inputByLabel<HTMLTextAreaElement>(body(), "Value"), "Hi");
    await click(getByRoleName(body(), "button", "Save"));
    await waitFor(() => expect(writes(requests)).toHaveLength(1));
    expect(writes(requests)[0]).toMatchObject({ path: "/api/admin/settings", body: { key: "promo_line", value: "Hi", is_active: true } });
  });
});
