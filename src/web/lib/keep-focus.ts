// When the focused control disappears (a row's 'Confirm EFT received' once the payment is paid, a
// list re-rendered under the cursor), the browser drops focus to the page's body, and a keyboard
// user's next Tab starts again at the top of the page, through the whole menu. This puts focus on
// the open dialog (its content swapped) or the page's main region (`#main` with a tabindex)
// instead, where the next Tab carries on.
import { useEffect } from "react";

export function useKeepFocusInPage(): void {
  useEffect(() => {
    if (typeof MutationObserver === "undefined") return;
    let last: Element | null = document.activeElement;
    const onFocusIn = (event: FocusEvent) => {
      last = event.target instanceof Element ? event.target : null;
    };
    const observer = new MutationObserver(() => {
      if (!last || last.isConnected) return;
      last = null;
      if (document.activeElement && document.activeElement !== document.body) return;
      // Inside an open dialog (its content swapped), the dialog; else the page's main region.
      const dialogs = document.querySelectorAll<HTMLElement>('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]');
      const target = dialogs[dialogs.length - 1] ?? document.getElementById("main");
      if (target?.hasAttribute("tabindex")) target.focus({ preventScroll: true });
    });
    document.addEventListener("focusin", onFocusIn);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => {
      document.removeEventListener("focusin", onFocusIn);
      observer.disconnect();
    };
  }, []);
}
