import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ADMIN_ONLY_TABLES } from "@/shared/change-feed";
import { ApiError } from "@/web/lib/api";
import { emitPaymentEvent, startAdminLiveData } from "./use-admin-live-data";

class FakeEventSource {
  static last: FakeEventSource | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
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
let refetched: string[];
let fail: unknown;
let stop: () => void;
const onSyncError = vi.fn();
const notify = vi.fn();
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  queryClient = new QueryClient();
  refetched = [];
  fail = null;
  onSyncError.mockClear();
  notify.mockClear();
  vi.spyOn(queryClient, "invalidateQueries").mockImplementation(async (filters, options) => {
    refetched.push((filters?.queryKey ?? []).join("/"));
    // the admin asks to hear about failed refetches
    expect(options).toEqual({ throwOnError: true });
    if (fail) throw fail;
  });
  stop = startAdminLiveData({
    queryClient,
    createEventSource: (url) => new FakeEventSource(url) as unknown as EventSource,
    onSyncError,
    notify,
  });
});
afterEach(() => stop());

describe("startAdminLiveData", () => {
  it("streams the admin-only tables besides the public ones", () => {
    const tables = decodeURIComponent(FakeEventSource.last!.url.split("tables=")[1]).split(",");
    for (const table of [...ADMIN_ONLY_TABLES, "packages", "pricing_specials"]) expect(tables).toContain(table);
  });

  it("refetches a changed table's lists and the screens that show it, and toasts 'Data Updated'", async () => {
    FakeEventSource.last!.emit({ table: "captured_payments", op: "UPDATE", id: "p1" });
    await flush();
    expect(refetched).toEqual(["admin/captured_payments", "admin/stats", "admin/clients"]);
    expect(notify).toHaveBeenCalledWith({ table: "captured_payments", op: "UPDATE", id: "p1" });
    FakeEventSource.last!.emit({ table: "leads", op: "INSERT", id: "l1" });
    await flush();
    expect(refetched.slice(3)).toEqual(["admin/leads", "admin/stats", "admin/clients"]);
  });

  it("refreshes the open inbox threads and the overview when an outbox row changes (a delivery state), without the toast", async () => {
    FakeEventSource.last!.emit({ table: "outbox", op: "UPDATE", id: "o1" });
    await flush();
    expect(refetched).toEqual(["admin/outbox", "admin/whatsapp_messages/thread", "admin/stats"]);
    expect(notify).not.toHaveBeenCalled();
  });

  it("shows 'Sync Error' when a refetch fails, but not for a lost session (that signs the admin out instead)", async () => {
    fail = new ApiError(503, "unavailable", "Database down.");
    FakeEventSource.last!.emit({ table: "clients", op: "UPDATE", id: "c1" });
    await flush();
    expect(onSyncError).toHaveBeenCalledTimes(1);
    // one failed refresh shows only its error, not 'Data Updated' beside it
    expect(notify).not.toHaveBeenCalled();

    fail = new ApiError(401, "unauthorized", "Please sign in as an admin.");
    FakeEventSource.last!.emit({ table: "clients", op: "UPDATE", id: "c1" });
    await flush();
    expect(onSyncError).toHaveBeenCalledTimes(1);
  });

  it("refreshes payments and clients on the paymentCaptured, paymentUpdated and paymentDeleted window events", async () => {
    emitPaymentEvent("paymentCaptured", "p1");
    await flush();
    expect(refetched).toEqual(["admin/captured_payments", "admin/clients", "admin/stats"]);
    window.dispatchEvent(new Event("paymentUpdated"));
    window.dispatchEvent(new Event("paymentDeleted"));
    await flush();
    expect(refetched).toHaveLength(9);
  });

  it("stops listening when stopped", async () => {
    const source = FakeEventSource.last!;
    stop();
    expect(source.closed).toBe(true);
    emitPaymentEvent("paymentUpdated");
    await flush();
    expect(refetched).toEqual([]);
  });
});
