// Opening a link the server has yet to make (a pay link, a download), in a new tab. Browsers
// only allow window.open straight after a click, and the link arrives a moment later: so the
// tab is opened at once (blank, with a holding message) and sent on when the link arrives. When
// the browser blocked the tab, the link opens in this one instead.

export function openPendingTab(message: string): Window | null {
  let tab: Window | null = null;
  try {
    tab = window.open("", "_blank");
  } catch {
    return null;
  }
  if (!tab) return null;
  try {
    // The new page must not be able to script or redirect this one (what 'noopener' would do,
    // which cannot be asked for here: with it, window.open returns no handle to send the tab on).
    tab.opener = null;
    tab.document.title = message;
    tab.document.body.style.cssText = "font-family:system-ui,sans-serif;background:#07080c;color:#f4f5f8;padding:2rem";
    tab.document.body.textContent = message;
  } catch {
    // A tab we cannot write to still works as a target.
  }
  return tab;
}

/** Sends the pending tab to `url`, or this tab when there is none (blocked or closed by the visitor). */
export function sendTabTo(tab: Window | null, url: string): void {
  if (tab && !tab.closed) tab.location.href = url;
  else window.location.assign(url);
}

export function closeTab(tab: Window | null): void {
  if (tab && !tab.closed) tab.close();
}
