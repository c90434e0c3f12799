// Spec §4: the special popup shows once per browser session, 1 s after load, flagged in
// sessionStorage as popupShownThisSession. "Load" is the page's: the document's load event
// when the visitor arrived on this page, or the moment the page was opened when they came from
// another page of the site. Not when the banners or the pricing section happen to arrive: on a
// slow phone those come later, and the popup then opens as soon as it can.
import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import type { Banner } from "@/shared/api";
import { SPECIAL_POPUP_DELAY_MS, SPECIAL_POPUP_SESSION_FLAG } from "@/shared/constants";

function alreadyShown(): boolean {
  try {
    return window.sessionStorage.getItem(SPECIAL_POPUP_SESSION_FLAG) === "true";
  } catch {
    // Storage blocked (private mode, strict settings): better once per page view than never.
    return false;
  }
}

function markShown(): void {
  try {
    window.sessionStorage.setItem(SPECIAL_POPUP_SESSION_FLAG, "true");
  } catch {
    // see alreadyShown
  }
}

/** When the document's load event finished (performance.now() time), or null while it has not. */
function documentLoadedAt(openedAt: number): number | null {
  const navigation = performance.getEntriesByType?.("navigation")[0] as PerformanceNavigationTiming | undefined;
  if (navigation && navigation.loadEventEnd > 0) return navigation.loadEventEnd;
  // Loaded, but the browser keeps no timing (or the test environment has none): from now on.
  return document.readyState === "complete" ? openedAt : null;
}

/** The special banner to show as a popup now, and a way to close it. */
export function useSpecialPopup(banners: readonly Banner[]): { banner: Banner | null; close: () => void } {
  const special = banners.find((banner) => banner.banner_type === "special") ?? null;
  const [shown, setShown] = useState<Banner | null>(null);
  const specialId = special?.id ?? null;
  // The latest copy of the banner, read when the timer fires; only a different special restarts the wait.
  const latest = useRef(special);
  latest.current = special;
  // React Router calls the document's first address "default": the visitor arrived on this page.
  const arrivedHere = useLocation().key === "default";
  const openedAt = useRef(performance.now());

  useEffect(() => {
    if (!specialId || alreadyShown()) return;
    let timer: number | undefined;
    const show = () => {
      if (alreadyShown()) return;
      markShown();
      // Not in a transition: the sections below the fold mount in transitions, and this one
      // would wait to commit with theirs. The dialog is small; it renders at once.
      setShown(latest.current);
    };
    const showAfter = (loadedAt: number) => {
      timer = window.setTimeout(show, Math.max(0, loadedAt + SPECIAL_POPUP_DELAY_MS - performance.now()));
    };
    const onLoad = () => showAfter(performance.now());
    const loadedAt = arrivedHere ? documentLoadedAt(openedAt.current) : openedAt.current;
    if (loadedAt === null) window.addEventListener("load", onLoad, { once: true });
    else showAfter(loadedAt);
    return () => {
      window.removeEventListener("load", onLoad);
      window.clearTimeout(timer);
    };
  }, [specialId, arrivedHere]);

  return { banner: shown, close: () => setShown(null) };
}
