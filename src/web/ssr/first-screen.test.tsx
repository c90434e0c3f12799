// The landing's first screen as the server draws it: the real routes, layout, navigation, hero
// and about section from the inlined reads, with the placeholders further down, so the
// browser's first render draws the same.
import { describe, expect, it } from "vitest";
import { renderFirstScreen } from "./first-screen";

const BOOT = {
  "/api/branding": { data: { company_name: "Mzansi Stream", tagline: "Local support" } },
  "/api/status": { overall: "stable", data: [{ key: "streaming", status: "operational" }] },
  "/api/notices": { data: [] },
  "/api/content?section=hero": {
    data: [
      {
        id: "h",
        section_name: "hero",
        title: `Every match </script><script>alert("x")</script>`,
        description: "In rand.",
        content: { features: ["Every PSL match"] },
        is_active: true,
        sort_order: 1,
      },
    ],
  },
};

describe("renderFirstScreen", () => {
  it("draws the landing's navigation, hero and about section from the reads, and the other sections' placeholders", async () => {
    const html = await renderFirstScreen("/", BOOT);
    expect(html).toBeTruthy();
    const page = document.createElement("div");
    page.innerHTML = html ?? "";
    expect(page.querySelector("h1#hero-heading")?.textContent).toBe(`Every match </script><script>alert("x")</script>`);
    expect(page.querySelector("script")).toBeNull();
    expect(page.querySelector("header")?.textContent).toContain("Mzansi Stream");
    expect(page.textContent).toContain("Every PSL match");
    expect(page.querySelector('a[href="/client/login"]')?.textContent).toBe("Client Portal");
    // About sits right under the hero: drawn with the page (the four default features without an 'about' read).
    const about = page.querySelector("section#about");
    expect(about?.getAttribute("aria-busy")).toBeNull();
    expect(about?.textContent).toContain("Privacy & Security");
    expect(about?.querySelector('a[href="/about"]')?.textContent).toContain("View Full Page");
    for (const id of ["pricing", "how-to-use", "testimonials", "order"]) {
      expect(page.querySelector(`section#${id}`)?.getAttribute("aria-busy"), id).toBe("true");
    }
    expect(page.querySelector("#pricing-packages")?.textContent).toBe("Loading pricing...");
  });

  it("draws /home too, and leaves every other page to the browser", async () => {
    expect(await renderFirstScreen("/home?utm_source=whatsapp", BOOT)).toContain("hero-heading");
    for (const url of ["/pricing", "/admin", "/client/login", "/no-such-page"]) {
      expect(await renderFirstScreen(url, BOOT), url).toBeNull();
    }
  });

  it("without reads it draws the hero's defaults, as the browser would", async () => {
    const page = document.createElement("div");
    page.innerHTML = (await renderFirstScreen("/", {})) ?? "";
    expect(page.querySelector("h1")).toBeNull(); // the hero waits for its content: skeleton lines
    expect(page.querySelector("#hero")).not.toBeNull();
  });
});
