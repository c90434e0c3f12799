import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { isOwnChange, markOwnChange, OWN_CHANGE_WINDOW_MS } from "./own-changes";
import { connectLiveData } from "./realtime";

describe("the visitor's own changes", () => {
  it("are recognised for a few seconds after they were marked, then forgotten", () => {
    markOwnChange("downloads", "app-1", 1000);
    expect(isOwnChange({ table: "downloads", id: "app-1" }, 1000 + OWN_CHANGE_WINDOW_MS)).toBe(true);
    expect(isOwnChange({ table: "downloads", id: "app-2" }, 1000)).toBe(false);
    expect(isOwnChange({ table: "packages", id: "app-1" }, 1000)).toBe(false);
    expect(isOwnChange({ table: "downloads", id: "app-1" }, 1001 + OWN_CHANGE_WINDOW_MS)).toBe(false);
  });

  it("refetch like any change, without the 'Data Updated' toast; someone else's change still shows it", () => {
    let onmessage: ((event: MessageEvent) => void) | null = null;
    const source = {
      set onmessage(handler: (event: MessageEvent) => void) {
        onmessage = handler;
      },
      addEventListener() {},
      close() {},
    };
    const queryClient = new QueryClient();
    const invalidate = vi.fn();
    const notify = vi.fn();
    let clock = 50_000;
    connectLiveData({
      queryClient,
      tables: ["downloads"],
      createEventSource: () => source as unknown as EventSource,
      notify,
      invalidate,
      now: () => clock,
    });
    const emit = (id: string) =>
      onmessage?.(new MessageEvent("message", { data: JSON.stringify({ table: "downloads", op: "UPDATE", id }) }));

    markOwnChange("downloads", "mine", clock);
    emit("mine");
    expect(invalidate).toHaveBeenCalledWith("downloads");
    expect(notify).not.toHaveBeenCalled();

    clock += 5000;
    emit("theirs");
    expect(notify).toHaveBeenCalledTimes(1);
  });
});
