// The server answers 404 for a path the app has no page at (src/shared/page-paths.ts). That list
// must hold every page of the router's table, or a real page would be served as missing.
import { matchRoutes } from "react-router";
import { describe, expect, it } from "vitest";
import { isPagePath, PAGE_PATHS } from "@/shared/page-paths";
import { routes } from "./router";

/** A concrete path for a route pattern: ':slug' → 'sample', optional segments dropped. */
const sample = (pattern: string) =>
  pattern
    .split("/")
    .filter((part) => !part.endsWith("?"))
    .map((part) => (part.startsWith(":") ? "sample" : part))
    .join("/") || "/";

function leafPaths(list: typeof routes, prefix = ""): string[] {
  const found: string[] = [];
  for (const route of list) {
    const path = route.path === undefined ? prefix : route.path.startsWith("/") ? route.path : `${prefix.replace(/\/$/, "")}/${route.path}`;
    if (route.children?.length) found.push(...leafPaths(route.children as typeof routes, path));
    else if (route.path !== "*") found.push(path || "/");
  }
  return found;
}

describe("page paths the server knows", () => {
  it("include every page of the router's table", () => {
    const paths = [...new Set(leafPaths(routes).map(sample))];
    expect(paths.length).toBeGreaterThan(25);
    for (const path of paths) {
      expect(isPagePath(path), path).toBe(true);
      // and the router itself has a page there (not only its catch-all)
      const matched = matchRoutes(routes, path) ?? [];
      expect(matched.at(-1)?.route.path, path).not.toBe("*");
    }
  });

  it.each([
    ["/pricing?x=1", true],
    ["/pricing/", true],
    ["/knowledge-base/paying-by-eft", true],
    ["/admin/leads", true],
    ["/nothing-here", false],
    ["/client/nothing", false],
    ["/knowledge-base/a/b", false],
    ["/adminx", false],
  ])("%s → %s", (path, known) => {
    expect(isPagePath(path)).toBe(known);
  });

  it("lists no path twice", () => {
    expect(new Set(PAGE_PATHS).size).toBe(PAGE_PATHS.length);
  });
});
