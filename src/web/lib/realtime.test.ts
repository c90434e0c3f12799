import { QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  connectLiveData,
  listenForPriceEvents,
  QUIET_BATCH_MS,
  QUIET_START_MS,
  RECONNECT_DELAYS_MS,
  reconnectDelay,
  refetchAfterChange,
  TOAST_THROTTLE_MS,
} from "./realtime";

/** Just enough of EventSource to drive the connection by hand. */
class FakeEventSource {
  static instances: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener() {}
  close() {
    this.closed = true;
  }
  emit(data: unknown) {
    this.onmessage?.(new MessageEvent("message", { data: JSON.stringify(data) }));
  }
}

let queryClient: QueryClient;
let invalidated: string[];
let clock: number;
const create = (url: string) => new FakeEventSource(url) as unknown as EventSource;
const last = () => FakeEventSource.instances[FakeEventSource.instances.length - 1];
/** Lets the refetch a change started finish (the toast waits for it). */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.instances = [];
  queryClient = new QueryClient();
  invalidated = [];
  clock = 0;
  vi.spyOn(queryClient, "invalidateQueries").mockImplementation(async (filters) => {
    invalidated.push(String(filters?.queryKey?.[0]));
  });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("connectLiveData", () => {
  it("opens one stream for the given tables", () => {
    const stop = connectLiveData({ queryClient, tables: ["packages", "site_branding"], createEventSource: create, notify: () => {} });
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(last().url).toBe("/api/events?tables=packages%2Csite_branding");
    stop();
    expect(last().closed).toBe(true);
  });

  it("says on <html> when the stream is past its catching-up moment and how many changes it has handled", async () => {
    const root = document.documentElement;
    delete root.dataset.live;
    delete root.dataset.liveHandled;
    const notify = vi.fn();
    const stop = connectLiveData({ queryClient, tables: ["packages"], createEventSource: create, notify, now: () => clock });
    expect(root.dataset.live).toBeUndefined();
    last().onopen?.();
    expect(root.dataset.live).toBe("catching-up");
    last().emit({ table: "packages", op: "UPDATE", id: "1" });
    expect(root.dataset.liveHandled).toBe("1");
    clock = QUIET_START_MS;
    await vi.advanceTimersByTimeAsync(QUIET_START_MS);
    expect(root.dataset.live).toBe("open");
    last().emit({ table: "packages", op: "UPDATE", id: "2" });
    // counted once its refetch and toast decision are done, not before
    expect(root.dataset.liveHandled).toBe("1");
    await settle();
    expect(notify).toHaveBeenCalledTimes(1);
    expect(root.dataset.liveHandled).toBe("2");
    stop();
  });

  it("refetches the changed table's queries and toasts 'Data Updated' at most once per 3 s", async () => {
    const notify = vi.fn();
    connectLiveData({ queryClient, tables: ["packages", "pricing_specials"], createEventSource: create, notify, now: () => clock });
    last().emit({ table: "packages", op: "UPDATE", id: "1" });
    expect(invalidated).toEqual(["packages"]);
    await settle();
    expect(notify).toHaveBeenCalledTimes(1);

    clock += TOAST_THROTTLE_MS - 1;
    last().emit({ table: "pricing_specials", op: "INSERT", id: "2" });
    expect(invalidated).toEqual(["packages", "specials"]);
    await settle();
    expect(notify).toHaveBeenCalledTimes(1);

    clock += 1;
    last().emit({ table: "packages", op: "DELETE", id: "1" });
    await settle();
    expect(notify).toHaveBeenCalledTimes(2);
  });

  it("no 'Data Updated' in the first moments after the stream opens (a page load, a sign-in), nor for a resync's 'maybe changed'; the data still refetches", async () => {
    const notify = vi.fn();
    connectLiveData({ queryClient, tables: ["packages"], createEventSource: create, notify, now: () => clock });
    last().onopen?.();
    last().emit({ table: "packages", op: "UPDATE", id: "1" });
    await settle();
    expect(invalidated).toEqual(["packages"]);
    expect(notify).not.toHaveBeenCalled();
    clock += QUIET_START_MS;
    // the server's resync after its LISTEN connection came back: every table "maybe changed"
    last().emit({ table: "packages", op: "UPDATE", id: null });
    await settle();
    expect(invalidated).toEqual(["packages", "packages"]);
    expect(notify).not.toHaveBeenCalled();
    // a real change after that is news
    last().emit({ table: "packages", op: "UPDATE", id: "2" });
    await settle();
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it("no 'Data Updated' when the refetch brings back what was shown; a toast when the rows really changed", async () => {
    const notify = vi.fn();
    const rows = [{ id: "p1", name: "3 Months", price: 1650 }];
    queryClient.setQueryData(["packages"], rows);
    let next: unknown = rows;
    vi.mocked(queryClient.invalidateQueries).mockImplementation(async () => {
      queryClient.setQueryData(["packages"], next);
    });
    connectLiveData({ queryClient, tables: ["packages"], createEventSource: create, notify, now: () => clock });
    last().emit({ table: "packages", op: "UPDATE", id: "p1" });
    await settle();
    expect(notify).not.toHaveBeenCalled();
    next = [{ id: "p1", name: "3 Months", price: 1450 }];
    clock += TOAST_THROTTLE_MS;
    last().emit({ table: "packages", op: "UPDATE", id: "p1" });
    await settle();
    expect(notify).toHaveBeenCalledTimes(1);
    expect(queryClient.getQueryData(["packages"])).toEqual(next);
  });

  it("refetches the status quietly, once per health check, when the monitor writes its minute's checks", async () => {
    const notify = vi.fn();
    connectLiveData({ queryClient, tables: ["status_checks", "system_components", "incidents"], createEventSource: create, notify });
    // One check: a row per component and each component's update, committed together.
    for (let i = 0; i < 5; i++) {
      last().emit({ table: "status_checks", op: "INSERT", id: `c${i}` });
      last().emit({ table: "system_components", op: "UPDATE", id: `s${i}` });
    }
    expect(invalidated).toEqual([]);
    vi.advanceTimersByTime(QUIET_BATCH_MS);
    expect(invalidated).toEqual(["status"]);
    expect(notify).not.toHaveBeenCalled();
    // The next minute's check refetches once more.
    last().emit({ table: "status_checks", op: "INSERT", id: "c9" });
    vi.advanceTimersByTime(QUIET_BATCH_MS);
    expect(invalidated).toEqual(["status", "status"]);
    // An incident is news: at once, with the toast.
    last().emit({ table: "incidents", op: "INSERT", id: "3" });
    expect(invalidated).toEqual(["status", "status", "status"]);
    await settle();
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it("ignores tables it did not ask for and malformed messages", () => {
    const notify = vi.fn();
    connectLiveData({ queryClient, tables: ["packages"], createEventSource: create, notify });
    last().emit({ table: "clients", op: "UPDATE", id: "1" });
    last().onmessage?.(new MessageEvent("message", { data: "not json" }));
    expect(invalidated).toEqual([]);
    expect(notify).not.toHaveBeenCalled();
  });

  it("reconnects after 1, 2, 5, then 10 s, and refetches everything once back", () => {
    connectLiveData({ queryClient, tables: ["packages", "site_branding"], createEventSource: create, notify: () => {} });
    expect(RECONNECT_DELAYS_MS).toEqual([1000, 2000, 5000, 10_000]);
    for (const delay of [1000, 2000, 5000, 10_000, 10_000]) {
      const count = FakeEventSource.instances.length;
      last().onerror?.();
      expect(FakeEventSource.instances[count - 1].closed).toBe(true);
      vi.advanceTimersByTime(delay - 1);
      expect(FakeEventSource.instances).toHaveLength(count);
      vi.advanceTimersByTime(1);
      expect(FakeEventSource.instances).toHaveLength(count + 1);
    }
    last().onopen?.();
    expect(invalidated.sort()).toEqual(["branding", "packages"]);

    // Back to the first delay after a successful open.
    const count = FakeEventSource.instances.length;
    last().onerror?.();
    vi.advanceTimersByTime(1000);
    expect(FakeEventSource.instances).toHaveLength(count + 1);
  });

  it("does not reconnect once stopped", () => {
    const stop = connectLiveData({ queryClient, tables: ["packages"], createEventSource: create, notify: () => {} });
    last().onerror?.();
    stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it("reconnectDelay caps at 10 s", () => {
    expect([0, 1, 2, 3, 4, 50].map(reconnectDelay)).toEqual([1000, 2000, 5000, 10_000, 10_000, 10_000]);
  });
});

describe("listenForPriceEvents", () => {
  it("refetches packages at once on the four package events, and specials 500 ms after specialsUpdated", () => {
    const stop = listenForPriceEvents(queryClient);
    for (const name of ["pricingUpdated", "packageUpdated", "adminPackageUpdated", "publicPackageUpdated"]) {
      window.dispatchEvent(new Event(name));
    }
    expect(invalidated).toEqual(["packages", "packages", "packages", "packages"]);

    window.dispatchEvent(new Event("specialsUpdated"));
    vi.advanceTimersByTime(499);
    expect(invalidated).toHaveLength(4);
    vi.advanceTimersByTime(1);
    expect(invalidated[4]).toBe("specials");

    stop();
    window.dispatchEvent(new Event("pricingUpdated"));
    expect(invalidated).toHaveLength(5);
  });
});

describe("refetchAfterChange", () => {
  /** A list on screen whose loads answer when the test says: `loads[i](rows)` answers the i-th load. */
  function listOnScreen(client: QueryClient) {
    const loads: ((rows: string[]) => void)[] = [];
    const observer = new QueryObserver(client, {
      queryKey: ["admin", "leads"],
      queryFn: () => new Promise<string[]>((resolve) => loads.push(resolve)),
      retry: false,
    });
    const unsubscribe = observer.subscribe(() => {});
    return { loads, unsubscribe, rows: () => client.getQueryData<string[]>(["admin", "leads"]) };
  }

  it("a change during a list's first load loads it again, and the first load's late answer (read before the change) is dropped", async () => {
    vi.useRealTimers();
    const client = new QueryClient();
    const list = listOnScreen(client);
    await vi.waitFor(() => expect(list.loads).toHaveLength(1));
    const refreshed = refetchAfterChange(client, ["admin", "leads"], { throwOnError: true });
    await vi.waitFor(() => expect(list.loads).toHaveLength(2));
    list.loads[1](["Thandi", "Sipho (new)"]);
    await refreshed;
    list.loads[0](["Thandi"]);
    // What the late answer sets off are promise reactions: a macrotask runs only after all of them.
    await new Promise((resolve) => setImmediate(resolve));
    expect(list.rows()).toEqual(["Thandi", "Sipho (new)"]);
    list.unsubscribe();
  });

  it("a list already shown is refetched once, as any change does", async () => {
    vi.useRealTimers();
    const client = new QueryClient();
    const list = listOnScreen(client);
    await vi.waitFor(() => expect(list.loads).toHaveLength(1));
    list.loads[0](["Thandi"]);
    await vi.waitFor(() => expect(list.rows()).toEqual(["Thandi"]));
    const refreshed = refetchAfterChange(client, ["admin", "leads"]);
    await vi.waitFor(() => expect(list.loads).toHaveLength(2));
    list.loads[1](["Thandi", "Sipho (new)"]);
    await refreshed;
    expect(list.rows()).toEqual(["Thandi", "Sipho (new)"]);
    expect(list.loads).toHaveLength(2);
    list.unsubscribe();
  });
});
