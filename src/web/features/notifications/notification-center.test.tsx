import { act } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NOTIFICATION_PROMPT_DELAY_MS } from "@/shared/constants";
import { cleanup, click, getByRoleName, render, waitFor } from "@/web/testing/render";

class FakeEventSource {
  static urls: string[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  constructor(url: string) {
    FakeEventSource.urls.push(url);
  }
  close() {}
}

const requestPermission = vi.fn(async () => "granted" as NotificationPermission);

beforeEach(() => {
  vi.resetModules();
  localStorage.clear();
  FakeEventSource.urls = [];
  requestPermission.mockClear();
  vi.stubGlobal("Notification", { permission: "default", requestPermission });
  vi.stubGlobal("EventSource", FakeEventSource);
});
afterEach(async () => {
  await cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function renderCenter() {
  const { NotificationCenter } = await import("./notification-center");
  return render(<NotificationCenter />);
}

describe("NotificationCenter", () => {
  it("on the first run, asks in the page 3 s later, and only asks the browser after a click", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { container } = await renderCenter();
    expect(localStorage.getItem("initialized")).toBe("true");
    await act(async () => {
      vi.advanceTimersByTime(2900);
    });
    expect(container.textContent).not.toContain("Get notified about new specials?");
    await act(async () => {
      vi.advanceTimersByTime(100);
    });
    vi.useRealTimers();
    await waitFor(() => expect(container.textContent).toContain("Get notified about new specials?"));
    expect(requestPermission).not.toHaveBeenCalled();

    await click(getByRoleName(container, "button", "Yes, notify me"));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    // granted: the prompt goes and the alerts listen to new specials and notices
    await waitFor(() => expect(FakeEventSource.urls).toEqual(["/api/events?tables=pricing_specials,notices"]));
    expect(container.textContent).not.toContain("Get notified about new specials?");
  });

  it("does not ask again on a later visit, and 'Not now' closes the prompt", async () => {
    const first = await renderCenter();
    await waitFor(() => expect(first.container.textContent).toContain("Get notified about new specials?"), 5000);
    await click(getByRoleName(first.container, "button", "Not now"));
    expect(first.container.textContent).toBe("");
    expect(requestPermission).not.toHaveBeenCalled();
    await cleanup();

    vi.resetModules(); // a new page load
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const later = await renderCenter();
    // The prompt comes only from its timer: on a later visit none is set, so none can show it.
    expect(vi.getTimerCount()).toBe(0);
    await act(async () => {
      vi.advanceTimersByTime(NOTIFICATION_PROMPT_DELAY_MS + 200);
    });
    expect(later.container.textContent).toBe("");
  });
});
