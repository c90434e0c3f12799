import { afterEach, describe, expect, it } from "vitest";
import { cleanup, renderRoutes } from "@/web/testing/render";
import { KbBody, parseKbBody } from "./kb-body";

afterEach(cleanup);

async function renderBody(body: string) {
  const { rendered } = renderRoutes([{ path: "/", element: <KbBody body={body} /> }]);
  return (await rendered).container;
}

describe("parseKbBody", () => {
  it("reads titled groups, numbered steps, bullets and paragraphs", () => {
    const body = [
      "Getting set up takes three steps.",
      "",
      "1. Choose and pay",
      "Pick a package on the Pricing page.",
      "",
      "The rules",
      "- One trial per person.",
      "- Not on sport event days.",
      "Then we send your login.",
      "",
      "Amazon Fire Stick",
      "1. Install Downloader.",
      "2. Turn on unknown apps.",
      "3. Open the app.",
    ].join("\n");
    expect(parseKbBody(body)).toEqual([
      { kind: "paragraph", text: "Getting set up takes three steps." },
      { kind: "heading", level: 2, text: "1. Choose and pay" },
      { kind: "paragraph", text: "Pick a package on the Pricing page." },
      { kind: "heading", level: 2, text: "The rules" },
      { kind: "list", ordered: false, start: 1, items: ["One trial per person.", "Not on sport event days."] },
      { kind: "paragraph", text: "Then we send your login." },
      { kind: "heading", level: 2, text: "Amazon Fire Stick" },
      { kind: "list", ordered: true, start: 1, items: ["Install Downloader.", "Turn on unknown apps.", "Open the app."] },
    ]);
  });

  it("keeps a list's starting number, reads markdown headings, and joins wrapped lines", () => {
    expect(parseKbBody("## Before you start\nRun the test first:\nit takes\na minute.\n\n4. Four\n5. Five\n\n### Small print")).toEqual([
      { kind: "heading", level: 2, text: "Before you start" },
      { kind: "paragraph", text: "Run the test first: it takes a minute." },
      { kind: "list", ordered: true, start: 4, items: ["Four", "Five"] },
      { kind: "heading", level: 3, text: "Small print" },
    ]);
  });

  it("does not take a lone line or a sentence for a heading", () => {
    expect(parseKbBody("Stuck? Send us a WhatsApp.\n\nWhat you need:\n- SD: 10 Mbps")).toEqual([
      { kind: "paragraph", text: "Stuck? Send us a WhatsApp." },
      { kind: "paragraph", text: "What you need:" },
      { kind: "list", ordered: false, start: 1, items: ["SD: 10 Mbps"] },
    ]);
  });
});

describe("KbBody", () => {
  it("renders headings, ordered and bulleted lists as elements", async () => {
    const container = await renderBody(
      "Paying by EFT\n1. Choose\n2. Pay\n\nWhen does it activate?\n- Instant EFT: within the hour\n- Normal EFT: 1-2 days",
    );
    expect([...container.querySelectorAll("h2")].map((h) => h.textContent)).toEqual(["Paying by EFT", "When does it activate?"]);
    expect([...container.querySelectorAll("ol > li")].map((li) => li.textContent)).toEqual(["Choose", "Pay"]);
    expect(container.querySelectorAll("ul > li")).toHaveLength(2);
    expect(container.querySelector("h1")).toBeNull();
  });

  it("shows HTML in an article as text and never creates its elements", async () => {
    const evil =
      '<script>window.hacked = true</script>\n\n<img src=x onerror="window.hacked = true">\n\n- <a href="javascript:alert(1)">click</a>';
    const container = await renderBody(evil);
    expect(container.querySelector("script, img, a[href^='javascript']")).toBeNull();
    expect(container.textContent).toContain("<script>window.hacked = true</script>");
    expect(container.textContent).toContain('<img src=x onerror="window.hacked = true">');
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
  });

  it("links our own paths and web addresses, and bolds **text**", async () => {
    const container = await renderBody("Open /status. If it is **down**, see https://example.org/help.");
    const links = [...container.querySelectorAll("a")];
    expect(links.map((a) => a.getAttribute("href"))).toEqual(["/status", "https://example.org/help"]);
    expect(links[1].getAttribute("rel")).toBe("noopener noreferrer");
    expect(container.querySelector("strong")?.textContent).toBe("down");
    expect(container.textContent).toBe("Open /status. If it is down, see https://example.org/help.");
  });
});
