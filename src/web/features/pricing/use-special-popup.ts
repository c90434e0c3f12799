// Spec §4: the special popup shows once per browser session, 1 s after load, flagged in
// sessionStorage as popupShownThisSession.
import { startTransition, useEffect, useRef, useState } from "react";
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

/** The special banner to show as a popup now, and a way to close it. */
export function useSpecialPopup(banners: readonly Banner[]): { banner: Banner | null; close: () => void } {
  const special = banners.find((banner) => banner.banner_type === "special") ?? null;
  const [shown, setShown] = useState<Banner | null>(null);
  const specialId = special?.id ?? null;
  // The latest copy of the banner, read when the timer fires; only a different special restarts the wait.
  const latest = useRef(special);
  latest.current = special;

  useEffect(() => {
    if (!specialId || alreadyShown()) return;
    const timer = window.setTimeout(() => {
      if (alreadyShown()) return;
      markShown();
      // Not urgent: the dialog renders between the visitor's taps and scrolls.
      startTransition(() => setShown(latest.current));
    }, SPECIAL_POPUP_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [specialId]);

  return { banner: shown, close: () => setShown(null) };
}
