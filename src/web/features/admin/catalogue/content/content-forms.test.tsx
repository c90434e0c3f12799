import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, getByRoleName, waitFor } from "@/web/testing/render";
import { fieldError, inputByLabel, renderWithClient, stubApi, typeInto } from "../components/test-helpers";
import { ContentSection } from "./content-section";

vi.mock("@/web/lib/toast", () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
vi.mock("react-router", async (original) => ({
  ...(await original<typeof import("react-router")>()),
  useParams: () => ({ subsection: section }),
}));

let section = "hero";
const body = () => document.body;

const HERO = {
  id: "h1",
  section_name: "hero",
  title: "Live TV",
  description: "Stream it all",
  // stored as a JSON string (spec §3), with a key the form does not edit
  content: JSON.stringify({
    features: ["HD", "4K"],
    cta_primary: "Try Free Now",
    cta_secondary: "Start",
    rating_text: "5 stars",
    extra: 1,
  }),
  is_active: true,
  sort_order: 1,
};
const ABOUT = {
  id: "a1",
  section_name: "about",
  title: "About us",
  description: "Who we are",
  content: { features: [{ icon: "Zap", color: "#facc15", title: "Fast", description: "Quick" }] },
  is_active: true,
  sort_order: 2,
};
const FOOTER = {
  id: "f1",
  section_name: "footer",
  title: "StreamDesk",
  description: "Footer text",
  content: {
    links: [{ text: "Pricing", id: "pricing" }],
    support_links: [{ text: "Downloads", url: "/downloads" }],
    disclaimer: "Reseller.",
  },
  is_active: true,
  sort_order: 9,
};

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

const list = { "/api/admin/content": { body: { data: [HERO, ABOUT, FOOTER] } } };

describe("homepage content forms", () => {
  it("hero: loads the stored JSON and saves the shape the public hero reads", async () => {
    section = "hero";
    const requests = stubApi({ ...list, "PATCH /api/admin/content/h1": (b) => ({ body: { ...HERO, ...(b as object) } }) });
    await renderWithClient(<ContentSection />);
    const primary = await waitFor(() => inputByLabel(body(), "Primary button"));
    expect(primary.value).toBe("Try Free Now");
    expect(body().querySelector<HTMLInputElement>("input[aria-label='Feature 2']")?.value).toBe("4K");

    await typeInto(primary, "Start Free Trial");
    await typeInto(body().querySelector<HTMLInputElement>("input[aria-label='New feature']") as HTMLInputElement, "Local support");
    await click(getByRoleName(body(), "button", "Add"));
    await click(getByRoleName(body(), "button", "Save hero"));

    await waitFor(() => expect(requests.some((r) => r.method === "PATCH")).toBe(true));
    expect(requests.find((r) => r.method === "PATCH")).toEqual({
      method: "PATCH",
      path: "/api/admin/content/h1",
      body: {
        title: "Live TV",
        description: "Stream it all",
        content: {
          features: ["HD", "4K", "Local support"],
          cta_primary: "Start Free Trial",
          cta_secondary: "Start",
          rating_text: "5 stars",
          extra: 1,
        },
      },
    });
  });

  it("about: saves feature cards with icon and colour, and shows a bad colour beside its field", async () => {
    section = "about";
    const requests = stubApi({ ...list, "PATCH /api/admin/content/a1": (b) => ({ body: { ...ABOUT, ...(b as object) } }) });
    await renderWithClient(<ContentSection />);
    const colour = await waitFor(() => inputByLabel(body(), "Colour"));
    expect(inputByLabel<HTMLSelectElement>(body(), "Icon").value).toBe("Zap");

    await typeInto(colour, "blue");
    await click(getByRoleName(body(), "button", "Save about"));
    await waitFor(() => expect(fieldError(inputByLabel(body(), "Colour"))).toMatch(/hex colour/));
    expect(requests.some((r) => r.method === "PATCH")).toBe(false);

    await typeInto(colour, "#34d399");
    await typeInto(inputByLabel<HTMLSelectElement>(body(), "Icon"), "Heart");
    await click(getByRoleName(body(), "button", "Save about"));
    await waitFor(() => expect(requests.some((r) => r.method === "PATCH")).toBe(true));
    expect(requests.find((r) => r.method === "PATCH")?.body).toEqual({
      title: "About us",
      description: "Who we are",
      content: { features: [{ icon: "Heart", color: "#34d399", title: "Fast", description: "Quick" }] },
    });
  });

  it("footer: links keep either a section id or a URL; the server's message shows beside the field", async () => {
    section = "footer";
    const requests = stubApi({
      ...list,
      "PATCH /api/admin/content/f1": {
        status: 400,
        body: {
          error: {
            code: "validation",
            message: "Link URL must start with https:// or /",
            fields: { "content.support_links.0.url": "Link URL must start with https:// or /" },
          },
        },
      },
    });
    await renderWithClient(<ContentSection />);
    const sectionId = await waitFor(() => inputByLabel(body(), "Section id"));
    expect(sectionId.value).toBe("pricing");
    await click(getByRoleName(body(), "button", "Save footer"));
    await waitFor(() => expect(requests.some((r) => r.method === "PATCH")).toBe(true));
    expect(requests.find((r) => r.method === "PATCH")?.body).toEqual({
      description: "Footer text",
      content: {
        links: [{ text: "Pricing", id: "pricing" }],
        support_links: [{ text: "Downloads", url: "/downloads" }],
        disclaimer: "Reseller.",
      },
    });
    await waitFor(() => expect(fieldError(inputByLabel(body(), "URL"))).toBe("Link URL must start with https:// or /"));
  });
});
