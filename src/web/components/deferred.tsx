// A part of the page below the fold that mounts after the first screen (lib/deferred-mount.ts
// says when). Until then its placeholder holds its place, and its anchor id, so a link to it
// still lands.
import { type ReactNode, startTransition, useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { allDeferredMounted, mountWhenIdle, subscribeMountAll } from "@/web/lib/deferred-mount";

/** How far ahead of the view a part mounts as the visitor scrolls: half a screen. */
const NEAR_VIEW_MARGIN = "50% 0px";

/** True once the part should mount; pass the setter as the placeholder's ref. */
export function useDeferredMount(): [boolean, (element: Element | null) => void] {
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
    // A transition: the part renders in slices between the visitor's taps and scrolls.
    const mount = () => startTransition(() => setDue(true));
    let observer: IntersectionObserver | undefined;
    if (typeof IntersectionObserver === "function") {
      observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && mount(), {
        rootMargin: NEAR_VIEW_MARGIN,
      });
      observer.observe(element);
    }
    const cancelIdle = mountWhenIdle(mount);
    return () => {
      observer?.disconnect();
      cancelIdle();
    };
  }, [mounted]);

  return [mounted, setElement];
}

/** Renders `children` once due; until then `placeholder`, given the ref it must attach. */
export function Deferred({
  children,
  placeholder,
}: {
  children: ReactNode;
  placeholder: (ref: (element: Element | null) => void) => ReactNode;
}) {
  const [mounted, ref] = useDeferredMount();
  return <>{mounted ? children : placeholder(ref)}</>;
}
