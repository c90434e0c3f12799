// Smooth scrolling to landing sections, honouring prefers-reduced-motion. The landing's
// sections arrive lazily and its packages load after it, so the page above a target can still
// grow after the scroll starts: for a short while the target is kept in place, until the
// visitor scrolls on their own.

import { mountAllDeferred } from "./deferred-mount";

const FOLLOW_MS = 2500;
const USER_SCROLL_EVENTS = ["wheel", "touchstart", "keydown", "mousedown"] as const;

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** 'smooth', or 'auto' (a jump) for people who ask for reduced motion: every scrollIntoView uses it. */
export function scrollBehavior(): ScrollBehavior {
  return prefersReducedMotion() ? "auto" : "smooth";
}

/** Scrolls to the element with this id; returns false when it is not on the page. */
export function scrollToSection(id: string): boolean {
  // The parts below the fold mount now, so the target ends where it will stay.
  mountAllDeferred();
  const element = document.getElementById(id);
  if (!element) return false;
  element.scrollIntoView({ behavior: scrollBehavior(), block: "start" });
  followLayoutChanges(id);
  return true;
}

let stopFollowing: (() => void) | null = null;

function followLayoutChanges(id: string): void {
  stopFollowing?.();
  if (typeof ResizeObserver === "undefined") return;
  let first = true;
  const observer = new ResizeObserver(() => {
    // The observer reports once on start; only later changes move the target.
    if (first) {
      first = false;
      return;
    }
    document.getElementById(id)?.scrollIntoView({ behavior: "auto", block: "start" });
  });
  const stop = () => {
    observer.disconnect();
    clearTimeout(timer);
    for (const name of USER_SCROLL_EVENTS) window.removeEventListener(name, stop);
    if (stopFollowing === stop) stopFollowing = null;
  };
  const timer = setTimeout(stop, FOLLOW_MS);
  for (const name of USER_SCROLL_EVENTS) window.addEventListener(name, stop, { passive: true });
  observer.observe(document.body);
  stopFollowing = stop;
}
