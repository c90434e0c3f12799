// A part of the page below the fold that mounts after the first screen (lib/deferred-mount.ts
// says when). Until then its placeholder holds its place, and its anchor id, so a link to it
// still lands.
import { type ReactNode, startTransition, useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { allDeferredMounted, mountWhenIdle, subscribeMountAll } from "@/web/lib/deferred-mount";

/** How far ahead of the view a part mounts as the visitor scrolls: half a screen. */
const NEAR_VIEW_MARGIN = "50% 0px";

/**
 * True once the part should mount; pass the setter as the placeholder's ref. `prepare` (loading
 * the part's code) runs first when the part mounts at idle or near the view, so the part then
 * renders and commits on its own, in one go, rather than suspending and being revealed later
 * together with whichever other parts finished loading at about the same time.
 */
export function useDeferredMount(prepare?: () => Promise<unknown>): [boolean, (element: Element | null) => void] {
  const all = useSyncExternalStore(subscribeMountAll, allDeferredMounted, allDeferredMounted);
  const [due, setDue] = useState(false);
  // A ref, not state: a state update from a ref callback lands inside React's commit and makes it
  // finish everything (effects, a second render) in that one task, hydration included.
  const elementRef = useRef<Element | null>(null);
  const setElement = useCallback((element: Element | null) => {
    elementRef.current = element;
  }, []);
  const mounted = all || due;

  useEffect(() => {
    const element = elementRef.current;
    if (mounted || !element) return;
    let cancelled = false;
    // A transition: the part renders in slices between the visitor's taps and scrolls.
    const due = () => !cancelled && startTransition(() => setDue(true));
    let started = false;
    const mount = () => {
      if (started) return;
      started = true;
      // If its code cannot load, the part mounts anyway and its own boundary says what failed.
      return prepare ? prepare().then(due, due) : due();
    };
    let observer: IntersectionObserver | undefined;
    if (typeof IntersectionObserver === "function") {
      observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && mount(), {
        rootMargin: NEAR_VIEW_MARGIN,
      });
      observer.observe(element);
    }
    const cancelIdle = mountWhenIdle(mount);
    return () => {
      cancelled = true;
      observer?.disconnect();
      cancelIdle();
    };
  }, [mounted, prepare]);

  return [mounted, setElement];
}

/** Renders `children` once due; until then `placeholder`, given the ref it must attach. */
export function Deferred({
  children,
  placeholder,
  prepare,
}: {
  children: ReactNode;
  placeholder: (ref: (element: Element | null) => void) => ReactNode;
  /** loads what the part needs (its code), before it mounts at idle or near the view */
  prepare?: () => Promise<unknown>;
}) {
  const [mounted, ref] = useDeferredMount(prepare);
  return <>{mounted ? children : placeholder(ref)}</>;
}
