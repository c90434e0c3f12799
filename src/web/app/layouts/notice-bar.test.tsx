import { QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, click, render, stubFetch, testQueryClient, waitFor } from "@/web/testing/render";
import { NoticeBar } from "./notice-bar";

const notice = (id: string, title: string, severity: string, body = "") => ({
  id,
  title,
  body,
  severity,
  audience: "public",
  starts_at: null,
  ends_at: null,
  created_at: "2026-11-23T08:00:00.000Z",
});

const renderBar = (client = testQueryClient()) =>
  render(
    <QueryClientProvider client={client}>
      <NoticeBar />
    </QueryClientProvider>,
  );

afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
});

describe("NoticeBar", () => {
  it("shows each public notice, critical ones as alerts, and closes one for this page view", async () => {
    vi.stubGlobal(
      "fetch",
      stubFetch({
        "/notices": {
          body: {
            data: [
              notice("n1", "Maintenance tonight", "warning", "Streams pause from 23:00 to 23:30."),
              notice("n2", "Sport channels down", "critical"),
            ],
          },
        },
      }).fetch,
    );
    const { container } = await renderBar();
    await waitFor(() => expect(container.textContent).toContain("Maintenance tonight"));
    expect(container.textContent).toContain("Streams pause from 23:00 to 23:30.");
    expect(container.querySelector('[role="alert"]')?.textContent).toContain("Sport channels down");
    await click(container.querySelector('button[aria-label="Close notice: Maintenance tonight"]'));
    expect(container.textContent).not.toContain("Maintenance tonight");
    expect(container.textContent).toContain("Sport channels down");
  });

  it("shows nothing when there are no notices or the read fails", async () => {
    vi.stubGlobal("fetch", stubFetch({ "/notices": { status: 503, body: { error: { code: "unavailable", message: "down" } } } }).fetch);
    const client = testQueryClient();
    const { container } = await renderBar(client);
    // judged once the read has failed (its retries done), not after a fixed wait
    await waitFor(
      () =>
        expect(
          client
            .getQueryCache()
            .getAll()
            .map((query) => query.state.status),
        ).toEqual(["error"]),
      10_000,
    );
    expect(container.querySelector("section")).toBeNull();
  });
});
