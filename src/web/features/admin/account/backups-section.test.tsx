// The backups page offers the download on the embedded database and says to use pg_dump on PostgreSQL.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BackupsSection } from "./backups-section";

function renderOn(database: "pglite" | "postgres") {
  vi.stubGlobal(
    "fetch",
    async () => new Response(JSON.stringify({ data: { database } }), { status: 200, headers: { "content-type": "application/json" } }),
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <BackupsSection />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe("BackupsSection", () => {
  it("on the embedded database, links the download", async () => {
    renderOn("pglite");
    const link = await screen.findByRole("link", { name: "Download backup" });
    expect(link.getAttribute("href")).toBe("/api/admin/backup");
    expect(screen.getByText(/npm run restore -- file\.tar\.gz/)).toBeTruthy();
  });

  it("on PostgreSQL, says to use pg_dump and offers no download", async () => {
    renderOn("postgres");
    expect(await screen.findByText(/This shop runs on PostgreSQL/)).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Download backup" })).toBeNull();
  });
});
