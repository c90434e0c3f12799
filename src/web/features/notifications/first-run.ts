// Spec §4 'First run of notifications': runs once per browser, marked by the `initialized`
// flag in local storage; the permission prompt appears 3 s after that first run.

export const FIRST_RUN_FLAG = "initialized";

/** What this visit should do about notifications. */
export type NotificationPlan = "none" | "prompt" | "listen";

export interface NotificationEnvironment {
  /** Notification.permission, or undefined where the browser has no notifications */
  permission: NotificationPermission | undefined;
  storage: Pick<Storage, "getItem" | "setItem"> | undefined;
}

/**
 * 'listen' once permission is granted (every visit); 'prompt' on the first run while the
 * browser has not been asked; otherwise 'none'. The flag is written here, so the first run
 * happens once whatever the visitor answers (or if they never answer).
 */
export function planNotifications({ permission, storage }: NotificationEnvironment): NotificationPlan {
  if (permission === undefined) return "none";
  if (permission === "granted") return "listen";
  let firstRun = false;
  try {
    firstRun = storage?.getItem(FIRST_RUN_FLAG) === null;
    if (firstRun) storage?.setItem(FIRST_RUN_FLAG, "true");
  } catch {
    // Storage blocked (private mode): treat as not the first run rather than prompting every visit.
    return "none";
  }
  return firstRun && permission === "default" ? "prompt" : "none";
}

let planned: NotificationPlan | undefined;

/** The plan for this page load, worked out once (React may run effects twice in development). */
export function notificationPlanForThisLoad(): NotificationPlan {
  planned ??= planNotifications({
    permission: typeof Notification === "undefined" ? undefined : Notification.permission,
    storage: typeof localStorage === "undefined" ? undefined : localStorage,
  });
  return planned;
}
