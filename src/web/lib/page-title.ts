// A page's own tab title, for pages whose title is only known once they render (a help article,
// a payment's outcome, the dashboard section open). The route table's `title` names every other
// page; the root layout (app/layouts/root-layout.tsx) writes `<title> · <business name>` from
// whichever of the two is set, so there is one place that writes document.title.
import { useEffect, useSyncExternalStore } from "react";

let current: string | undefined;
const listeners = new Set<() => void>();

function publish(title: string | undefined): void {
  current = title;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Names the tab while the calling component is mounted (undefined: keep the route's title). */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    if (!title) return;
    publish(title);
    return () => {
      if (current === title) publish(undefined);
    };
  }, [title]);
}

/** The title a mounted page asked for, if any (read by the root layout). */
export function usePageTitleOverride(): string | undefined {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => undefined,
  );
}
