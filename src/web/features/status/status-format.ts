// How the status page words and colours what GET /api/status reports. Pure, so the bars and
// the banner can be tested without a server.
import type { ComponentStatus, OverallStatus, StatusDay } from "@/shared/api";
import { formatDate, formatDateTime } from "@/shared/dates";
import { STATUS_LABELS } from "@/shared/status";

/** The big banner: spec §4's three verdicts in words a customer understands at a glance. */
export const OVERALL_WORDING: Readonly<Record<OverallStatus, { title: string; text: string }>> = {
  stable: {
    title: STATUS_LABELS.stable,
    text: "Every service is running normally.",
  },
  maintenance: {
    title: "Some services are under maintenance",
    text: "We're doing planned work. You may notice short interruptions until it's finished.",
  },
  down: {
    title: "Some services are down",
    text: "We know about the problem and we're working on a fix. There's no need to reinstall anything.",
  },
};

/** Bar colours per day; grey when nothing was checked that day. */
export const DAY_COLOURS: Readonly<Record<ComponentStatus | "none", string>> = {
  operational: "bg-ok",
  degraded: "bg-warn",
  maintenance: "bg-sky-400",
  down: "bg-bad",
  none: "bg-line-strong",
};

/**
 * 0..1 as a percentage that never rounds up to a perfect score: 0.99996 reads 99.99%, not
 * 100%, because a day with one failed check was not a perfect day.
 */
export function formatUptime(share: number): string {
  if (share >= 1) return "100%";
  const pct = Math.floor(Math.max(0, share) * 10_000) / 100;
  return `${pct}%`;
}

/** Mean uptime over the days that have data, or null when no day has any. */
export function uptimeOver(days: readonly StatusDay[]): number | null {
  const measured = days.filter((d): d is StatusDay & { uptime: number } => d.uptime !== null);
  if (!measured.length) return null;
  return measured.reduce((sum, d) => sum + d.uptime, 0) / measured.length;
}

/** '22 Nov 2026: Operational, 100% uptime' or '22 Nov 2026: No data'. */
export function dayLabel(day: StatusDay): string {
  const date = formatDate(day.date) || day.date;
  if (day.status === null) return `${date}: No data`;
  const uptime = day.uptime === null ? "" : `, ${formatUptime(day.uptime)} uptime`;
  return `${date}: ${STATUS_LABELS[day.status] ?? day.status}${uptime}`;
}

/** '22 Nov 2026, 14:05 SAST', or '' without a time. */
export function formatSast(iso: string | null | undefined): string {
  const text = formatDateTime(iso);
  return text ? `${text} SAST` : "";
}
