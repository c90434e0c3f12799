// System notifications for new specials and notices (spec §4), once the visitor has allowed
// them. Listens to the change feed for those two tables only, looks the new row up through the
// public API (so a special outside its date window, or an inactive notice, stays quiet) and
// shows it through the service worker, which keeps working while the tab is in the background.
import { useEffect } from "react";
import type { ChangeEvent, Notice, Special } from "@/shared/api";
import { formatRand } from "@/shared/money";
import { apiGet } from "@/web/lib/api";

export const ALERT_TABLES = ["pricing_specials", "notices"] as const;

export interface Alert {
  title: string;
  body: string;
  /** where a click on the notification goes */
  url: string;
  /** one notification per row, even with the site open in several tabs */
  tag: string;
}

export function specialAlert(special: Special): Alert {
  const price =
    special.original_price > special.special_price
      ? `${special.package_name}: now ${formatRand(special.special_price)}, was ${formatRand(special.original_price)}.`
      : `${special.package_name}: ${formatRand(special.special_price)}.`;
  return {
    title: special.title || `New special on ${special.package_name}`,
    body: special.description ? `${price} ${special.description}` : price,
    url: "/pricing#pricing-packages",
    tag: `special-${special.id}`,
  };
}

export function noticeAlert(notice: Notice): Alert {
  const body = notice.body.length > 180 ? `${notice.body.slice(0, 177).trimEnd()}…` : notice.body;
  return { title: notice.title, body, url: "/", tag: `notice-${notice.id}` };
}

/** The alert for a change, or null when it is not a new, publicly visible special or notice. */
export async function alertFor(change: ChangeEvent, get: typeof apiGet = apiGet): Promise<Alert | null> {
  if (change.op !== "INSERT" || !change.id) return null;
  if (change.table === "pricing_specials") {
    const { data } = await get<{ data: Special[] }>("/specials");
    const special = data?.find((s) => s.id === change.id);
    return special ? specialAlert(special) : null;
  }
  if (change.table === "notices") {
    const { data } = await get<{ data: Notice[] }>("/notices");
    const notice = data?.find((n) => n.id === change.id);
    return notice ? noticeAlert(notice) : null;
  }
  return null;
}

export async function showAlert(alert: Alert): Promise<void> {
  const options: NotificationOptions = {
    body: alert.body,
    icon: "/icon-192.png",
    badge: "/icon-192.png",
    tag: alert.tag,
    data: { url: alert.url },
  };
  const registration = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  if (registration) {
    await registration.showNotification(alert.title, options);
    return;
  }
  // No service worker (development builds): a page notification that opens the page on click.
  const notification = new Notification(alert.title, options);
  notification.onclick = () => {
    window.focus();
    window.location.assign(alert.url);
    notification.close();
  };
}

function parseChange(data: unknown): ChangeEvent | null {
  if (typeof data !== "string") return null;
  try {
    const parsed = JSON.parse(data) as Partial<ChangeEvent>;
    return typeof parsed?.table === "string" && typeof parsed.op === "string" ? (parsed as ChangeEvent) : null;
  } catch {
    return null;
  }
}

/** Listens while mounted; the browser's EventSource reconnects by itself after a drop. */
export function LiveAlerts(): null {
  useEffect(() => {
    if (typeof EventSource === "undefined" || typeof Notification === "undefined") return;
    const source = new EventSource(`/api/events?tables=${ALERT_TABLES.join(",")}`);
    source.onmessage = (event) => {
      const change = parseChange(event.data);
      if (!change || Notification.permission !== "granted") return;
      alertFor(change)
        .then((alert) => (alert ? showAlert(alert) : undefined))
        .catch((error: unknown) => console.warn("Could not show a notification", error));
    };
    return () => source.close();
  }, []);
  return null;
}
