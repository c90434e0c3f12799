// The first screen's reads from the page seed the query cache: the hero and the navigation draw
// with their content in the very first render, without fetching.
import { afterEach, describe, expect, it, vi } from "vitest";
import { LANDING_FIRST_SCREEN_READS, PUBLIC_FIRST_SCREEN_READS } from "@/shared/first-screen";
import { SiteNav } from "@/web/app/layouts/site-nav";
import { HeroSection } from "@/web/features/landing/hero-section";
import { bannersQueryOptions } from "@/web/features/pricing/api/get-banners";
import { testimonialsQueryOptions } from "@/web/features/testimonials/api/get-testimonials";
import { downloadsQueryOptions } from "@/web/lib/queries/downloads";
import { packagesQueryOptions } from "@/web/lib/queries/packages";
import { settingsQueryOptions } from "@/web/lib/queries/settings";
import { specialsQueryOptions } from "@/web/lib/queries/specials";
import { cleanup, renderRoutes, testQueryClient } from "@/web/testing/render";
import { type BootData, readBootData, seedFirstScreen } from "./first-screen";
import { brandingQueryOptions } from "./queries/branding";
import { contentQueryOptions } from "./queries/content";
import { imagesQueryOptions } from "./queries/images";
import { noticesQueryOptions } from "./queries/notices";
import { statusQueryOptions } from "./queries/status";
import { trialAvailabilityQueryOptions } from "./queries/trial-availability";

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
  "/api/trial-availability": { data: { available: false, reason: "Derby day", day: "2026-11-22" } },
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
    // A sport event day is known from the first render: the free-trial button says so at once.
    expect(container.querySelector('[data-testid="no-trial-today"]')?.textContent).toContain("(Derby day)");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("caches every read on the shared list under its query's key, as the query's own fetcher would", async () => {
    // Each path with the query options that read it in the app.
    const QUERIES: Record<string, { queryKey: readonly unknown[]; queryFn?: unknown }> = {
      "/api/branding": brandingQueryOptions(),
      "/api/images?keys=pwa_icon": imagesQueryOptions(["pwa_icon"]),
      "/api/status": statusQueryOptions(),
      "/api/notices": noticesQueryOptions(),
      "/api/content?section=hero": contentQueryOptions("hero"),
      "/api/trial-availability": trialAvailabilityQueryOptions(),
      "/api/images?keys=hero_logo": imagesQueryOptions(["hero_logo"]),
      "/api/content?section=about": contentQueryOptions("about"),
      "/api/images?keys=about_company_logo": imagesQueryOptions(["about_company_logo"]),
      "/api/packages": packagesQueryOptions(),
      "/api/specials": specialsQueryOptions(),
      "/api/banners": bannersQueryOptions(),
      "/api/settings": settingsQueryOptions(),
      "/api/downloads": downloadsQueryOptions(),
      "/api/testimonials": testimonialsQueryOptions(),
      "/api/content?section=testimonials": contentQueryOptions("testimonials"),
      "/api/content?section=footer": contentQueryOptions("footer"),
      "/api/images?keys=footer_logo": imagesQueryOptions(["footer_logo"]),
      "/api/images?keys=footer_mascot": imagesQueryOptions(["footer_mascot"]),
    };
    const all = [...PUBLIC_FIRST_SCREEN_READS, ...LANDING_FIRST_SCREEN_READS];
    expect(Object.keys(QUERIES).sort()).toEqual([...all].sort());
    // A distinct answer per path, as the server would send it.
    const answers: BootData = Object.fromEntries(
      all.map((path, i) => [
        path,
        path === "/api/status" ? { overall: "stable", data: [{ key: `c${i}`, status: "operational" }] } : { data: [{ id: `row-${i}` }] },
      ]),
    );
    const queryClient = testQueryClient();
    seedFirstScreen(queryClient, answers);
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => new Response(JSON.stringify(answers[url]), { status: 200 })),
    );
    for (const path of all) {
      const options = QUERIES[path] as { queryKey: readonly unknown[]; queryFn: (context: unknown) => Promise<unknown> };
      const fetched = await options.queryFn({ queryKey: options.queryKey, signal: new AbortController().signal, meta: undefined });
      expect(queryClient.getQueryData(options.queryKey), path).toEqual(fetched);
    }
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
