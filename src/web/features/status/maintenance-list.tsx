// Scheduled maintenance on /status (issue 13 item 5): what is in progress, then what is coming,
// soonest first, with the times in SAST and the services it affects. Completed and cancelled
// windows are not sent.
import type { Maintenance, StatusComponent } from "@/shared/api";
import { maintenancePhase } from "@/shared/status";
import { Badge } from "@/web/components/ui/badge";
import { formatSast } from "./status-format";
import { StatusNotice } from "./status-notice";

export function MaintenanceList({
  maintenance,
  components,
  now = Date.now(),
}: {
  maintenance: readonly Maintenance[];
  components: readonly StatusComponent[];
  now?: number;
}) {
  const names = new Map(components.map((c) => [c.key, c.name]));
  const phased = maintenance
    .map((m) => ({ m, phase: maintenancePhase(m, now) }))
    .filter((x) => x.phase !== "over")
    .sort((a, b) => (a.phase === b.phase ? Date.parse(a.m.starts_at) - Date.parse(b.m.starts_at) : a.phase === "in_progress" ? -1 : 1));
  if (!phased.length) return null;
  return (
    <section aria-labelledby="maintenance-heading" className="flex flex-col gap-4">
      <h2 id="maintenance-heading" className="text-xl font-semibold text-ink">
        Scheduled maintenance
      </h2>
      <ul className="flex flex-col gap-4">
        {phased.map(({ m, phase }) => {
          const affected = m.component_keys.map((key) => names.get(key) ?? key);
          return (
            <li key={m.id} data-maintenance={phase} className="rounded-card border border-line bg-surface p-5">
              <Badge variant={phase === "in_progress" ? "warn" : "neutral"}>{phase === "in_progress" ? "In progress" : "Upcoming"}</Badge>
              <StatusNotice
                title={m.title}
                body={m.body}
                facts={[
                  { label: "Starts", value: formatSast(m.starts_at), time: true },
                  { label: "Ends", value: formatSast(m.ends_at), time: true },
                  { label: "Affects", value: affected.join(", ") || null },
                ]}
              />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
