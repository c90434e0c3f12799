// The first screen's reads from the page seed the query cache: the hero and the navigation draw
// with their content in the very first render, without fetching.
import { afterEach, describe, expect, it, vi } from "vitest";
import { LANDING_FIRST_SCREEN_READS, PUBLIC_FIRST_SCREEN_READS } from "@/shared/first-screen";
import { SiteNav } from "@/web/app/layouts/site-nav";
import { HeroSection } from "@/web/features/landing/hero-section";
import { cleanup, renderRoutes, testQueryClient } from "@/web/testing/render";
import { type BootData, readBootData, seedFirstScreen } from "./first-screen";
import { getBranding } from "./queries/branding";
import { getContent } from "./queries/content";
import { getImages } from "./queries/images";

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  document.getElementById("boot-data")?.remove();
});

const BOOT: BootData = {
  "/api/branding": { data: { company_name: "Mzansi Stream", tagline: "Local support" } },
  "/api/images?keys=pwa_icon": { data: [{ image_key: "pwa_icon", image_url: "/uploads/icon.png", alt_text: "" }] },
  "/api/images?keys=hero_logo": { data: [{ image_key: "hero_logo", image_url: "/uploads/logo.png", alt_text: "Mzansi Stream" }] },
  "/api/status": { overall: "down", data: [{ key: "streaming", status: "down" }] },
  "/api/notices": { data: [] },
  "/api/content?section=hero": {
    data: [
      { id: "h", section_name: "hero", title: "Every match, live", description: "In rand.", content: {}, is_active: true, sort_order: 1 },
    ],
  },
};

describe("seeding the first screen", () => {
  it("the hero and the navigation draw their content in the first render, and nothing is fetched", async () => {
    const fetchMock = vi.fn(async () => new Response("{}", { status: 500 }));
    vi.stubGlobal("fetch", fetchMock);
    const queryClient = testQueryClient();
    seedFirstScreen(queryClient, BOOT);
    const { container } = await renderRoutes(
      [
        {
          path: "/",
          element: (
            <>
              <SiteNav />
              <HeroSection />
            </>
          ),
        },
      ],
      "/",
      queryClient,
    ).rendered;
    expect(container.querySelector("h1")?.textContent).toBe("Every match, live");
    expect(container.textContent).toContain("Mzansi Stream");
    expect(container.querySelector('img[alt="Mzansi Stream"]')?.getAttribute("src")).toBe("/uploads/logo.png");
    expect(container.querySelector("[data-status]")?.getAttribute("data-status")).toBe("down");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("caches each read as its query would, for every path the server sends", async () => {
    const queryClient = testQueryClient();
    seedFirstScreen(queryClient, BOOT);
    const answers: Record<string, unknown> = {
      "/api/branding": BOOT["/api/branding"],
      "/api/content?section=hero": BOOT["/api/content?section=hero"],
      "/api/images?keys=hero_logo": BOOT["/api/images?keys=hero_logo"],
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => new Response(JSON.stringify(answers[url]), { status: 200 })),
    );
    // What the queries' own fetchers make of the same answers is what was seeded.
    expect(queryClient.getQueryData(["branding"])).toEqual(await getBranding());
    expect(queryClient.getQueryData(["content", "hero"])).toEqual(await getContent("hero"));
    expect(queryClient.getQueryData(["images", "hero_logo"])).toEqual(await getImages(["hero_logo"]));
    // Every path on the shared list lands somewhere in the cache.
    const all = [...PUBLIC_FIRST_SCREEN_READS, ...LANDING_FIRST_SCREEN_READS];
    expect(Object.keys(BOOT).sort()).toEqual([...all].sort());
    expect(queryClient.getQueryCache().getAll()).toHaveLength(all.length);
  });

  it("reads the page's block; a missing or broken one is no data", () => {
    expect(readBootData()).toEqual({});
    const element = document.createElement("script");
    element.id = "boot-data";
    element.type = "application/json";
    element.textContent = JSON.stringify({ "/api/notices": { data: [] } });
    document.body.append(element);
    expect(readBootData()).toEqual({ "/api/notices": { data: [] } });
    element.textContent = "{broken";
    expect(readBootData()).toEqual({});
    const queryClient = testQueryClient();
    seedFirstScreen(queryClient, { "/api/unknown": { data: 1 }, "/api/branding": null });
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });
});
