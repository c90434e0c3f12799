// The panel's words in the owner's: its modes, what each job does, and the sums the overview,
// the panel page and a client's page show (failed jobs, tasks, lines held up by credits).
import type { AdminPanelView, ProvisioningJob } from "@/shared/business-schemas";

/** The panel's answer when the reseller has run out of credits (INTEGRATIONS, reseller API). */
export const INSUFFICIENT_CREDITS = "STATUS_INSUFFICIENT_CREDITS";

export const MODE_LABELS: Record<AdminPanelView["mode"], string> = {
  sandbox: "Sandbox",
  xtream: "Your panel (Xtream API)",
  manual: "Manual",
};

export const MODE_TEXT: Record<AdminPanelView["mode"], string> = {
  sandbox:
    "No panel is connected, so every line is a TEST LINE with a generated login that plays nothing. Set PANEL_API_URL and PANEL_API_KEY to make real lines on your panel.",
  xtream:
    "Lines are made, extended and switched on or off on your reseller panel through its API, as soon as the payment or change happens.",
  manual:
    "Your panel has no API access, so each step is a task for you below. Do it on your panel, paste the login here, and the client gets it at once.",
};

export function actionLabel(job: Pick<ProvisioningJob, "action" | "trial">): string {
  switch (job.action) {
    case "create_line":
      return job.trial ? "Create trial line" : "Create line";
    case "extend_line":
      return "Extend line";
    case "enable_line":
      return "Switch line on";
    case "disable_line":
      return "Switch line off";
    case "change_mac":
      return "Move the line to a new MAC";
    case "isp_clear":
      return "Clear the line's ISP lock";
    default:
      // a job this dashboard does not know yet: its name in words rather than as code
      return String(job.action)
        .replace(/_/g, " ")
        .replace(/^./, (c) => c.toUpperCase());
  }
}

/** A completed task that makes the line needs the login the owner made on the panel. */
/** Completing the job makes the client's line, so it needs the login (the server says so). */
export const needsLogin = (job: Pick<ProvisioningJob, "needs_login">) => job.needs_login;

export const isOutOfCredits = (job: Pick<ProvisioningJob, "status" | "error_status">) =>
  job.status === "failed" && job.error_status === INSUFFICIENT_CREDITS;

/** 'Your panel is out of credits: 2 lines are waiting. Top up, then retry.' */
export function outOfCreditsText(waiting: number): string {
  return `Your panel is out of credits: ${waiting} ${waiting === 1 ? "line is" : "lines are"} waiting. Top up, then retry.`;
}

/** '1,250', or null when the panel keeps no credits (sandbox, manual) or could not be read. */
export function creditsText(view: Pick<AdminPanelView, "credits">): string | null {
  return view.credits === null ? null : view.credits.toLocaleString("en-US");
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
