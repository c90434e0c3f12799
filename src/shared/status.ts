// System status: the overall verdict (spec §4) and the ordering of component statuses.
import type { ComponentStatus, OverallStatus } from "./api";

/**
 * Spec §4: down if any entry is down; else maintenance if any is in maintenance; else
 * stable — also stable while loading (undefined/null) or when there are no entries, so the
 * navigation icon does not flicker while the status loads.
 */
export function overallStatus(entries: readonly { status: string }[] | undefined | null): OverallStatus {
  if (!entries?.length) return "stable";
  if (entries.some((e) => e.status === "down")) return "down";
  if (entries.some((e) => e.status === "maintenance")) return "maintenance";
  return "stable";
}

/** Labels for component statuses and for the overall verdict (the two share their words). */
export const STATUS_LABELS: Readonly<Record<ComponentStatus | OverallStatus, string>> = Object.freeze({
  operational: "Operational",
  degraded: "Degraded performance",
  maintenance: "Under maintenance",
  down: "Down",
  stable: "All systems operational",
});

const SEVERITY: Record<ComponentStatus, number> = { operational: 0, degraded: 1, maintenance: 2, down: 3 };

/** The worse of two statuses (operational < degraded < maintenance < down); null means "no data". */
export function worstStatus(a: ComponentStatus, b: ComponentStatus): ComponentStatus;
export function worstStatus(a: ComponentStatus | null, b: ComponentStatus | null): ComponentStatus | null;
export function worstStatus(a: ComponentStatus | null, b: ComponentStatus | null): ComponentStatus | null {
  if (a === null) return b;
  if (b === null) return a;
  return SEVERITY[b] > SEVERITY[a] ? b : a;
}

/** Where a maintenance window stands at `now`: upcoming, in progress, or over (completed, cancelled or past its end). */
export function maintenancePhase(
  m: { status: string; starts_at: string; ends_at: string },
  now: number,
): "upcoming" | "in_progress" | "over" {
  if (m.status === "completed" || m.status === "cancelled" || Date.parse(m.ends_at) <= now) return "over";
  return m.status === "in_progress" || Date.parse(m.starts_at) <= now ? "in_progress" : "upcoming";
}

/** The component keys under maintenance in progress at `now`: they show "maintenance", whatever a check saw. */
export function keysUnderMaintenance(
  windows: readonly { status: string; starts_at: string; ends_at: string; component_keys: readonly string[] }[],
  now: number,
): Set<string> {
  const keys = new Set<string>();
  for (const m of windows) if (maintenancePhase(m, now) === "in_progress") for (const k of m.component_keys) keys.add(k);
  return keys;
}
