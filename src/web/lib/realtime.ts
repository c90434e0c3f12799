// Live data (spec §4, §7, §9): one EventSource on /api/events for the watched public tables.
// A change refetches the queries of that table and shows 'Data Updated' (at most one toast
// every 3 s; none for the health monitor's routine writes, nor for the visitor's own: see
// own-changes.ts; none when the refetch brought back what was shown, for a resync's "maybe
// changed", or in the first moments after the stream opens, when the page is catching up). A dropped stream reconnects after 1, 2, 5, then every 10 s, and refetches
// everything on return, since changes made while away were missed.
import type { InvalidateOptions, Query, QueryClient, QueryKey } from "@tanstack/react-query";
import type { ChangeEvent } from "@/shared/api";
import { SPECIALS_REFETCH_DELAY_MS } from "@/shared/retry";
import { isOwnChange } from "./own-changes";
import { publicTables, queryKeys, quietTables, tableQueryKeys } from "./query-keys";
import { toast } from "./toast";
import { PACKAGE_EVENTS, SPECIALS_EVENT } from "./window-events";

export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000] as const;
export const TOAST_THROTTLE_MS = 3000;
/** No 'Data Updated' this long after the stream first opens (a page load, a sign-in): the page is catching up. */
export const QUIET_START_MS = 2000;
/**
 * The health monitor writes a row per component in one transaction, so its changes arrive
 * together: a quiet table's queries refetch once, this long after the first of them, instead of
 * once per row (each refetch cancelling the one before).
 */
export const QUIET_BATCH_MS = 250;

/**
 * Refetches a key's queries after a change. react-query hands an invalidation the fetch already
 * in flight when the query has no data yet (it restarts one only over data), and a first load
 * may have read the rows before the change: that load is cancelled and started again, so a list
 * opened as a lead arrives shows the lead.
 */
export function refetchAfterChange(queryClient: QueryClient, queryKey: QueryKey, options?: InvalidateOptions): Promise<void> {
  const firstLoads = { queryKey, predicate: (query: Query) => query.state.data === undefined && query.state.fetchStatus === "fetching" };
  if (queryClient.getQueryCache().findAll(firstLoads).length === 0) return queryClient.invalidateQueries({ queryKey }, options);
  // The cancelled load must have settled first, or the invalidation would be handed it.
  return queryClient.cancelQueries(firstLoads).then(() => queryClient.invalidateQueries({ queryKey }, options));
}

export function reconnectDelay(attempt: number): number {
  return RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)];
}

export interface LiveDataOptions {
  queryClient: QueryClient;
  tables: readonly string[];
  /** shows the 'Data Updated' toast (at most once per TOAST_THROTTLE_MS); receives the change that caused it */
  notify?: (change: ChangeEvent) => void;
  /**
   * Refetches what depends on a table (default: the public query keys of tableQueryKeys). The
   * admin passes its own, which also reports a failed refetch and resolves to `false` then: a
   * failed refresh shows only its error, never 'Data Updated' as well.
   */
  invalidate?: (table: string) => unknown;
  /** injectable for tests */
  createEventSource?: (url: string) => EventSource;
  now?: () => number;
}

/** Opens the change stream; returns a function that closes it for good. */
export function connectLiveData({
  queryClient,
  tables,
  notify = showDataUpdated,
  invalidate,
  createEventSource = (url) => new EventSource(url),
  now = Date.now,
}: LiveDataOptions): () => void {
  const url = `/api/events?tables=${encodeURIComponent(tables.join(","))}`;
  let source: EventSource | null = null;
  let attempt = 0;
  let lostConnection = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastToast = Number.NEGATIVE_INFINITY;
  let closed = false;
  let quietEnd: ReturnType<typeof setTimeout> | undefined;

  const quietBatches = new Map<string, ReturnType<typeof setTimeout>>();
  const invalidateTable =
    invalidate ??
    ((table: string) => {
      const refetches: Promise<void>[] = [];
      for (const queryKey of tableQueryKeys[table] ?? []) {
        if (!quietTables.has(table)) {
          refetches.push(refetchAfterChange(queryClient, queryKey));
          continue;
        }
        const id = queryKey.join("/");
        if (quietBatches.has(id)) continue;
        const batch = setTimeout(() => {
          quietBatches.delete(id);
          void refetchAfterChange(queryClient, queryKey);
        }, QUIET_BATCH_MS);
        quietBatches.set(id, batch);
      }
      return refetches.length ? Promise.all(refetches) : undefined;
    });

  // When the stream first opened: what arrives just after a page load or a sign-in is the page
  // catching up, not news (issue 48 item 5).
  let openedAt = Number.NEGATIVE_INFINITY;
  const onChange = (event: MessageEvent) => {
    const change = parseChange(event.data);
    if (!change || !tables.includes(change.table)) return;
    // What is shown now, to tell a real change from a refetch that brought the same rows.
    const before = shownData(queryClient);
    const refreshed = invalidateTable(change.table);
    // A resync (id null: changes may have been missed) refetches quietly; so does the first moment after opening.
    if (change.id === null || now() - openedAt < QUIET_START_MS) return markHandled();
    if (quietTables.has(change.table) || isOwnChange(change, now())) return markHandled();
    const toastOnce = () => {
      if (closed || now() - lastToast < TOAST_THROTTLE_MS) return;
      // Nothing on screen changed (the rows read back the same): no news to announce.
      if (before.size > 0 && !changedSince(queryClient, before)) return;
      lastToast = now();
      notify(change);
    };
    if (refreshed instanceof Promise) {
      void refreshed.then((outcome) => outcome !== false && toastOnce()).finally(markHandled);
    } else {
      toastOnce();
      markHandled();
    }
  };

  const connect = () => {
    if (closed) return;
    source = createEventSource(url);
    source.onopen = () => {
      attempt = 0;
      if (openedAt === Number.NEGATIVE_INFINITY) {
        openedAt = now();
        markLive(+1);
        quietEnd = setTimeout(() => {
          quietEnd = undefined;
          markLive(-1);
        }, QUIET_START_MS);
      }
      if (lostConnection) {
        lostConnection = false;
        for (const table of tables) invalidateTable(table);
      }
    };
    source.onmessage = onChange;
    source.addEventListener("change", onChange as EventListener);
    source.onerror = () => {
      // Take over from the browser's own retry so the spec's backoff applies.
      source?.close();
      source = null;
      lostConnection = true;
      if (closed) return;
      timer = setTimeout(connect, reconnectDelay(attempt));
      attempt += 1;
    };
  };

  connect();
  return () => {
    closed = true;
    clearTimeout(timer);
    if (quietEnd !== undefined) {
      clearTimeout(quietEnd);
      markLive(-1);
    }
    for (const batch of quietBatches.values()) clearTimeout(batch);
    source?.close();
    source = null;
  };
}

/**
 * What the page says of its change streams on <html>, for whoever watches the page (the browser
 * tests wait on these rather than on guessed times): `data-live` is "catching-up" while any stream
 * is within QUIET_START_MS of first opening, then "open"; `data-live-handled` counts the changes
 * whose refetch and 'Data Updated' decision are done.
 */
let streamsCatchingUp = 0;
function markLive(step: 1 | -1): void {
  streamsCatchingUp += step;
  if (typeof document !== "undefined") document.documentElement.dataset.live = streamsCatchingUp > 0 ? "catching-up" : "open";
}

function markHandled(): void {
  if (typeof document === "undefined") return;
  const root = document.documentElement;
  root.dataset.liveHandled = String(Number(root.dataset.liveHandled ?? "0") + 1);
}

/** Each query's data as shown now (react-query keeps an unchanged answer's object, so a refetch of the same rows leaves it as it was). */
function shownData(queryClient: QueryClient): Map<string, unknown> {
  const shown = new Map<string, unknown>();
  for (const query of queryClient.getQueryCache().getAll())
    if (query.state.data !== undefined) shown.set(query.queryHash, query.state.data);
  return shown;
}

/** Whether any query shown before has other data now, or a new one has data. */
function changedSince(queryClient: QueryClient, before: Map<string, unknown>): boolean {
  for (const query of queryClient.getQueryCache().getAll()) {
    if (query.state.data === undefined) continue;
    if (!before.has(query.queryHash) || before.get(query.queryHash) !== query.state.data) return true;
  }
  return false;
}

function parseChange(data: unknown): ChangeEvent | null {
  if (typeof data !== "string") return null;
  try {
    const parsed = JSON.parse(data) as Partial<ChangeEvent>;
    return typeof parsed?.table === "string" ? (parsed as ChangeEvent) : null;
  } catch {
    return null;
  }
}

function showDataUpdated(): void {
  toast.info("Data Updated", { description: "You're seeing the latest information." });
}

/**
 * Window events that announce a price change (spec §7): the packages refetch at once, the
 * specials 500 ms later. Returns a function that stops listening.
 */
export function listenForPriceEvents(queryClient: QueryClient): () => void {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const refetchPackages = () => void queryClient.invalidateQueries({ queryKey: queryKeys.packages });
  const refetchSpecials = () => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      void queryClient.invalidateQueries({ queryKey: queryKeys.specials });
    }, SPECIALS_REFETCH_DELAY_MS);
    timers.add(timer);
  };
  for (const name of PACKAGE_EVENTS) window.addEventListener(name, refetchPackages);
  window.addEventListener(SPECIALS_EVENT, refetchSpecials);
  return () => {
    for (const name of PACKAGE_EVENTS) window.removeEventListener(name, refetchPackages);
    window.removeEventListener(SPECIALS_EVENT, refetchSpecials);
    for (const timer of timers) clearTimeout(timer);
  };
}

/** Starts everything that keeps the public data live; returns a function that stops it all. */
export function startLiveData(queryClient: QueryClient, tables: readonly string[] = publicTables): () => void {
  const stopPrices = listenForPriceEvents(queryClient);
  const stopStream = typeof EventSource === "undefined" ? () => {} : connectLiveData({ queryClient, tables });
  return () => {
    stopStream();
    stopPrices();
  };
}
