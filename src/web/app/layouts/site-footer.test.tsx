import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { SiteFooter } from "./site-footer";

function renderFooter(footerContent: unknown, path = "/downloads") {
  vi.stubGlobal(
    "fetch",
    stubFetch({
      "/branding": { body: { data: { company_name: "Kasi Stream", whatsapp_number: "082 123 4567", support_email: "help@kasi.test" } } },
      "/content?section=footer": { body: { data: footerContent ? [footerContent] : [] } },
    }).fetch,
  );
  const page = (name: string) => (
    <>
      <p>{name}</p>
      <SiteFooter />
    </>
  );
  return renderRoutes(
    [
      { path: "/", element: page("Landing") },
      { path: "*", element: page("Another page") },
    ],
    path,
  );
}

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

const hrefs = (container: HTMLElement, heading: string) => {
  const nav = [...container.querySelectorAll("footer nav")].find((n) => n.querySelector("h2")?.textContent === heading)!;
  return [...nav.querySelectorAll("a")].map((a) => [a.textContent, a.getAttribute("href")]);
};

describe("SiteFooter", () => {
  it("has the quick, support and legal links, WhatsApp and e-mail from branding, and the reseller disclaimer", async () => {
    const { rendered } = renderFooter(null);
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector('a[href^="https://wa.me/"]')).toBeTruthy());
    expect(hrefs(container, "Quick Links").map(([, href]) => href)).toEqual(["/#pricing", "/#about", "/#testimonials", "/#order"]);
    expect(hrefs(container, "Support").map(([, href]) => href)).toEqual(["/setup-guide", "/technical-support", "/downloads"]);
    expect(hrefs(container, "Legal").map(([, href]) => href)).toEqual(["/privacy-policy", "/terms-of-service", "/refund-policy"]);
    expect(container.querySelector('a[href^="https://wa.me/"]')?.getAttribute("href")).toBe("https://wa.me/27821234567");
    expect(container.querySelector('a[href^="https://wa.me/"]')?.textContent).toContain("+27 82 123 4567");
    expect(container.querySelector('a[href="mailto:help@kasi.test"]')).toBeTruthy();
    expect(container.textContent).toContain("Kasi Stream is an independent reseller");
    expect(container.textContent).toContain("licensed upstream providers");
  });

  it("a quick link on another page goes to that section of the landing page", async () => {
    const { rendered, router } = renderFooter(null, "/downloads");
    const { container, text } = await rendered;
    const pricing = [...container.querySelectorAll("footer a")].find((a) => a.textContent === "Pricing")!;
    await click(pricing);
    await waitFor(() => expect(text()).toContain("Landing"));
    expect(router.state.location.hash).toBe("#pricing");
  });

  it("on the landing page a quick link scrolls smoothly instead of navigating", async () => {
    const target = document.createElement("section");
    target.id = "order";
    target.scrollIntoView = vi.fn();
    document.body.appendChild(target);
    try {
      const { rendered, router } = renderFooter(null, "/");
      const { container } = await rendered;
      await click([...container.querySelectorAll("footer a")].find((a) => a.textContent === "Order Now")!);
      expect(target.scrollIntoView).toHaveBeenCalledWith(expect.objectContaining({ behavior: "smooth" }));
      expect(router.state.location.hash).toBe("");
    } finally {
      target.remove();
    }
  });

  it("uses the footer content's links and falls back to the defaults when they are malformed", async () => {
    const custom = {
      id: "f",
      section_name: "footer",
      title: "",
      description: "Streaming for Soweto and beyond.",
      content: { links: [{ text: "Plans", id: "pricing" }], support_links: [{ text: "Bad", url: "javascript:alert(1)" }] },
      is_active: true,
      sort_order: 1,
    };
    const { rendered } = renderFooter(custom);
    const { container } = await rendered;
    await waitFor(() => expect(container.textContent).toContain("Streaming for Soweto and beyond."));
    expect(hrefs(container, "Quick Links")).toEqual([["Plans", "/#pricing"]]);
    expect(hrefs(container, "Support").map(([, href]) => href)).toEqual(["/setup-guide", "/technical-support", "/downloads"]);
  });
});
