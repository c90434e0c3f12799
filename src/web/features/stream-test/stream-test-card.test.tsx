import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type StreamTestResult, streamTestResult } from "@/shared/readiness";
import { cleanup, click, getByRoleName, renderRoutes, waitFor } from "@/web/testing/render";
import type { RunOptions } from "./measure";
import { STREAM_TEST_SPEED } from "./speed-event";
import { StreamTestCard } from "./stream-test-card";
import { overallProgress } from "./use-stream-test";

const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock("@/web/lib/toast", () => ({ toast }));

/** A runner the test steps through by hand. */
function manualRun() {
  let options: RunOptions = {};
  let finish: (r: StreamTestResult) => void = () => {};
  let fail: (e: Error) => void = () => {};
  const run = vi.fn(
    (o: RunOptions) =>
      new Promise<StreamTestResult>((resolve, reject) => {
        options = o;
        finish = resolve;
        fail = reject;
      }),
  );
  return {
    run,
    progress: (phase: Parameters<NonNullable<RunOptions["onProgress"]>>[0], f: number) => act(async () => options.onProgress?.(phase, f)),
    finish: (r: StreamTestResult) => act(async () => finish(r)),
    fail: () => act(async () => fail(new Error("offline"))),
  };
}

function renderCard(run: (o: RunOptions) => Promise<StreamTestResult>) {
  return renderRoutes([
    { path: "/", element: <StreamTestCard run={run} /> },
    { path: "/order", element: <p>Order page</p> },
  ]);
}

beforeEach(() => {
  toast.success.mockReset();
  toast.error.mockReset();
  vi.stubGlobal(
    "fetch",
    vi.fn(async () => new Response(JSON.stringify({ data: { company_name: "StreamDesk" } }))),
  );
  vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(async () => {
  await cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.getElementById("order")?.remove();
});

describe("overallProgress", () => {
  it("each phase runs up to its spec mark: download 25, latency 50, jitter 75, packet loss 100", () => {
    expect(overallProgress("download", 0)).toBe(0);
    expect(overallProgress("download", 1)).toBe(25);
    expect(overallProgress("latency", 0.5)).toBe(38);
    expect(overallProgress("jitter", 1)).toBe(75);
    expect(overallProgress("packetLoss", 1)).toBe(100);
  });
});

describe("StreamTestCard", () => {
  it("runs through the phases with percentage and label, then shows the result tiles and readiness", async () => {
    const m = manualRun();
    const { rendered } = renderCard(m.run);
    const { container } = await rendered;
    await click(getByRoleName(container, "button", "Start Stream Test"));
    expect(container.textContent).toContain("Testing download speed...");
    await m.progress("download", 1);
    expect(container.querySelector('[role="progressbar"]')?.getAttribute("aria-valuenow")).toBe("25");
    expect(container.textContent).toContain("25%");
    await m.progress("latency", 0);
    expect(container.textContent).toContain("Testing latency...");
    await m.progress("jitter", 1);
    expect(container.textContent).toContain("Measuring jitter...");
    expect(container.textContent).toContain("75%");
    await m.progress("packetLoss", 0.2);
    expect(container.textContent).toContain("Checking packet loss...");

    await m.finish(streamTestResult({ download: 28.4, ping: 60, jitter: 12, packetLoss: 0.4 }));
    expect(toast.success).toHaveBeenCalledWith("Stream Test Complete", { description: "IPTV Status: Fair" });
    expect(container.querySelector('[data-testid="stream-readiness"]')?.textContent).toBe("Fair");
    const text = container.textContent ?? "";
    for (const part of [
      "Download",
      "28.4",
      "Mbps",
      "Ping",
      "60",
      "Jitter",
      "12",
      "Packet loss",
      "(estimate)",
      "Recommended quality: Full HD",
    ]) {
      expect(text).toContain(part);
    }
    for (const requirement of ["10-15 Mbps", "15-25 Mbps", "25-35 Mbps", "35+ Mbps"]) expect(text).toContain(requirement);
    const share = getByRoleName(container, "link", "Share via WhatsApp") as HTMLAnchorElement;
    expect(share.href.startsWith("https://wa.me/?text=")).toBe(true);
    const shared = decodeURIComponent(share.href.split("?text=")[1]);
    expect(shared).toContain("Download: 28.4 Mbps");
    expect(shared).toContain("IPTV readiness: Fair");
    expect(shared).toMatch(/Tested: \d{1,2} \w{3} \d{4}, \d{2}:\d{2} SAST/);
  });

  it("'Use this speed in my order' sends the figure to the order form on the same page", async () => {
    const m = manualRun();
    const order = document.createElement("section");
    order.id = "order";
    order.scrollIntoView = () => {};
    document.body.appendChild(order);
    const heard: string[] = [];
    const listener = (e: Event) => heard.push((e as CustomEvent<{ speed: string }>).detail.speed);
    window.addEventListener(STREAM_TEST_SPEED, listener);
    const { rendered } = renderCard(m.run);
    const { container } = await rendered;
    await click(getByRoleName(container, "button", "Start Stream Test"));
    await m.finish(streamTestResult({ download: 87.3, ping: 10, jitter: 1, packetLoss: 0 }));
    await click(getByRoleName(container, "button", "Use this speed in my order"));
    window.removeEventListener(STREAM_TEST_SPEED, listener);
    expect(heard).toEqual(["87.3 Mbps"]);
  });

  it("without an order section on the page it goes to /order with the speed", async () => {
    const m = manualRun();
    const { rendered, router } = renderCard(m.run);
    const { container } = await rendered;
    await click(getByRoleName(container, "button", "Start Stream Test"));
    await m.finish(streamTestResult({ download: 5, ping: 10, jitter: 1, packetLoss: 0 }));
    await click(getByRoleName(container, "button", "Use this speed in my order"));
    await waitFor(() => expect(router.state.location.pathname).toBe("/order"));
    expect(router.state.location.search).toBe("?speed=5%20Mbps");
  });

  it("a failed run toasts 'Stream Test Failed' and Test Again starts over", async () => {
    const m = manualRun();
    const { rendered } = renderCard(m.run);
    const { container } = await rendered;
    await click(getByRoleName(container, "button", "Start Stream Test"));
    await m.fail();
    expect(toast.error).toHaveBeenCalledWith("Stream Test Failed", { description: "Please check your connection and try again" });
    await click(getByRoleName(container, "button", "Test Again"));
    expect(m.run).toHaveBeenCalledTimes(2);
    expect(container.textContent).toContain("Testing download speed...");
  });
});
