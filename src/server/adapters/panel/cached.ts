// Panel reads kept for a while (issue 28): real panels rate-limit reseller API use and some
// upstreams ban resellers who poll (INTEGRATIONS.md). The panel's `user_info`, `packages` and
// `get_lines` answers are kept for the owner's `panel_cache_minutes` (default 5) and shared by
// everyone in the process: dashboard views, the checklist, the mapping form and the jobs. Calls
// at the same moment share one request; a failed read is not kept. A write (a line made,
// extended, switched on or off, or any other call the adapter grows) drops the credits and lines
// it may have changed. `refresh()` is the dashboard's Refresh button: the next reads go to the panel.
//
// A wrapper, not a change to the adapters: any method an adapter adds passes straight through.
import type { PanelAdapter } from "./panel";

const READS = ["userInfo", "packages", "lines"] as const;
type Read = (typeof READS)[number];
/** what a write may have changed: the credits it charged and the lines it touched */
const CHANGED_BY_WRITES: Read[] = ["userInfo", "lines"];

export interface CachedPanel extends PanelAdapter {
  /** forget every kept read: the next ones ask the panel */
  refresh(): void;
  /** when the kept packages and credits were read (the older of the two); null when not kept */
  readAt(): Date | null;
  /** the panel itself, every read asked now: for the credit ledger's balance before and after a charge */
  uncached(): PanelAdapter;
}

interface Kept {
  value: Promise<unknown>;
  at: number;
}

/**
 * `ttlMs` is asked on each read (the setting can change while the server runs); `now` is for tests.
 */
export function withReadCache(inner: PanelAdapter, ttlMs: () => Promise<number> | number, now: () => number = Date.now): CachedPanel {
  const kept = new Map<Read, Kept>();
  // bumped by a write or a refresh: a read begun before it is not kept, as it may be stale
  let generation = 0;

  const read = async (name: Read): Promise<unknown> => {
    const ttl = await ttlMs();
    const hit = kept.get(name);
    if (hit && now() - hit.at < ttl) return hit.value;
    const started = generation;
    const value = (inner[name] as () => Promise<unknown>).call(inner);
    const entry = { value, at: now() };
    kept.set(name, entry);
    value.then(
      () => {
        if (generation !== started && kept.get(name) === entry) kept.delete(name);
      },
      () => {
        if (kept.get(name) === entry) kept.delete(name);
      },
    );
    return value;
  };
  const dropChanged = () => {
    generation++;
    for (const name of CHANGED_BY_WRITES) kept.delete(name);
  };

  const own: Partial<CachedPanel> = {
    userInfo: () => read("userInfo") as ReturnType<PanelAdapter["userInfo"]>,
    packages: () => read("packages") as ReturnType<PanelAdapter["packages"]>,
    lines: () => read("lines") as ReturnType<PanelAdapter["lines"]>,
    refresh: () => {
      generation++;
      kept.clear();
    },
    uncached: () => inner,
    readAt: () => {
      const times = (["userInfo", "packages"] as const).map((name) => kept.get(name)?.at);
      if (times.some((at) => at === undefined)) return null;
      return new Date(Math.min(...(times as number[])));
    },
  };

  return new Proxy(inner, {
    get(target, property, receiver) {
      if (typeof property === "string" && Object.hasOwn(own, property)) return own[property as keyof CachedPanel];
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      // every other call is a write (or a read this wrapper does not know): after it, credits and lines are read again
      return async (...args: unknown[]) => {
        try {
          return await value.apply(target, args);
        } finally {
          dropChanged();
        }
      };
    },
  }) as CachedPanel;
}

export function isCachedPanel(panel: PanelAdapter): panel is CachedPanel {
  return typeof (panel as Partial<CachedPanel>).refresh === "function";
}
