// Scroll positions as a visitor expects them across pages: a new page starts at its top (or at
// the section its address names), and back, forward and reload return to where the page was
// left. The browser's own restoration cannot do it for an app that draws pages after the
// address changes, so it is switched off and done here.
import { useEffect, useLayoutEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";

const STORAGE_KEY = "streamdesk-scroll-positions";
/** How long a restore waits for the page to grow tall enough (its code and data arriving). */
const RESTORE_FOR_MS = 3000;

function readSaved(): Map<string, number> {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "{}") as Record<string, unknown>;
    return new Map(Object.entries(saved).filter((entry): entry is [string, number] => typeof entry[1] === "number"));
  } catch {
    return new Map();
  }
}

function save(positions: Map<string, number>): void {
  try {
    // The newest 100 entries: a long session does not fill the storage.
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries([...positions].slice(-100))));
  } catch {
    // Storage full or refused (private mode): positions last for this page load only.
  }
}

/**
 * Calls `attempt` on each frame until it says it is done, the time is up, or the visitor scrolls
 * or types themselves. Returns a function that stops it.
 */
function keepTrying(attempt: () => boolean): () => void {
  const until = performance.now() + RESTORE_FOR_MS;
  let frame = 0;
  const stop = () => {
    cancelAnimationFrame(frame);
    for (const type of ["wheel", "touchstart", "keydown", "pointerdown"]) window.removeEventListener(type, stop);
  };
  const tick = () => {
    if (attempt() || performance.now() > until) return stop();
    frame = requestAnimationFrame(tick);
  };
  for (const type of ["wheel", "touchstart", "keydown", "pointerdown"]) window.addEventListener(type, stop, { passive: true });
  tick();
  return stop;
}

function scrollToHash(hash: string): boolean {
  let id = hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // A malformed escape: the id as written.
  }
  const target = document.getElementById(id);
  if (!target) return false;
  target.scrollIntoView();
  return true;
}

function restoreTo(y: number): boolean {
  window.scrollTo(0, y);
  return Math.abs(window.scrollY - y) < 2;
}

export function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();
  const positions = useRef<Map<string, number> | null>(null);
  const currentKey = useRef(location.key);
  const lastPathname = useRef<string | null>(null);

  // Where each entry of the history was left, as the visitor scrolls; kept across reloads (the
  // layout effect below, which runs first, has read what was saved).
  useEffect(() => {
    window.history.scrollRestoration = "manual";
    const record = () => positions.current?.set(currentKey.current, window.scrollY);
    const persist = () => positions.current && save(positions.current);
    window.addEventListener("scroll", record, { passive: true });
    window.addEventListener("pagehide", persist);
    return () => {
      window.removeEventListener("scroll", record);
      window.removeEventListener("pagehide", persist);
      window.history.scrollRestoration = "auto";
    };
  }, []);

  useLayoutEffect(() => {
    positions.current ??= readSaved();
    currentKey.current = location.key;
    const previousPathname = lastPathname.current;
    lastPathname.current = location.pathname;
    const saved = positions.current.get(location.key);
    if (navigationType === "POP" && saved !== undefined) return keepTrying(() => restoreTo(saved));
    if (location.hash) return keepTrying(() => scrollToHash(location.hash));
    // A new page starts at its top; the same page with other search terms stays where it is.
    if (previousPathname !== null && previousPathname !== location.pathname) window.scrollTo(0, 0);
    return undefined;
  }, [location.key, location.pathname, location.hash, navigationType]);
}
