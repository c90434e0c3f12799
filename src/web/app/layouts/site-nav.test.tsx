import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, renderRoutes, stubFetch, waitFor } from "@/web/testing/render";
import { SiteNav } from "./site-nav";

const status = (entries: { key: string; status: string }[]) => ({
  body: { overall: "stable", data: entries, components: [], incidents: [], checked_at: null },
});

function renderNav(statusEntries = [{ key: "streaming", status: "operational" }]) {
  vi.stubGlobal(
    "fetch",
    stubFetch({ "/branding": { body: { data: { company_name: "Kasi Stream" } } }, "/status": status(statusEntries) }).fetch,
  );
  const page = (name: string) => (
    <>
      <SiteNav />
      <p>{name}</p>
    </>
  );
  return renderRoutes(
    [
      { path: "/", element: page("Home") },
      { path: "/technical-support", element: page("Technical support page") },
      { path: "*", element: page("Other") },
    ],
    "/",
  );
}

const menuButton = (container: HTMLElement) => container.querySelector<HTMLButtonElement>("button[aria-controls]")!;
const mobileMenu = (container: HTMLElement) => container.querySelector<HTMLElement>('nav[aria-label="Mobile"]')!;

beforeEach(() => {
  vi.useRealTimers();
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("SiteNav", () => {
  it("links Help Centre, Status, Admin Login and Client Portal", async () => {
    const { rendered } = renderNav();
    const { container } = await rendered;
    const main = container.querySelector('nav[aria-label="Main"]')!;
    const links = [...main.querySelectorAll("a")].map((a) => [a.textContent?.replace(/\s*\(.*\)$/, ""), a.getAttribute("href")]);
    expect(links).toEqual([
      ["Help Centre", "/knowledge-base"],
      ["Status", "/status"],
      ["Admin Login", "/admin/login"],
      ["Client Portal", "/client/login"],
    ]);
    await waitFor(() => expect(container.querySelector("header a")?.textContent).toContain("Kasi Stream"));
  });

  it.each([
    [[{ key: "a", status: "operational" }], "stable"],
    [
      [
        { key: "a", status: "maintenance" },
        { key: "b", status: "operational" },
      ],
      "maintenance",
    ],
    [
      [
        { key: "a", status: "maintenance" },
        { key: "b", status: "down" },
      ],
      "down",
    ],
  ])("shows the overall health icon for %j as %s", async (entries, expected) => {
    const { rendered } = renderNav(entries);
    const { container } = await rendered;
    await waitFor(() => expect(container.querySelector(`nav[aria-label="Main"] [data-status="${expected}"]`)).toBeTruthy());
  });

  it("the mobile menu toggles with aria-expanded, offers Technical Support, and Escape closes it", async () => {
    const { rendered } = renderNav();
    const { container } = await rendered;
    const button = menuButton(container);
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(mobileMenu(container).hidden).toBe(true);

    await click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    expect(button.getAttribute("aria-label")).toBe("Close menu");
    expect(mobileMenu(container).hidden).toBe(false);
    expect([...mobileMenu(container).querySelectorAll("a")].map((a) => a.getAttribute("href"))).toContain("/technical-support");

    await act(async () => {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape" }));
    });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(document.activeElement).toBe(button);
  });

  it("the mobile menu closes on navigation", async () => {
    const { rendered } = renderNav();
    const { container, text } = await rendered;
    await click(menuButton(container));
    const link = [...mobileMenu(container).querySelectorAll("a")].find((a) => a.getAttribute("href") === "/technical-support")!;
    await click(link);
    await waitFor(() => expect(text()).toContain("Technical support page"));
    expect(menuButton(container).getAttribute("aria-expanded")).toBe("false");
    expect(mobileMenu(container).hidden).toBe(true);
  });
});
