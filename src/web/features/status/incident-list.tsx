// Incidents on /status: open ones first (newest first), then the recently resolved.
import type { Incident, StatusComponent } from "@/shared/api";
import { Badge, type BadgeVariant } from "@/web/components/ui/badge";
import { formatSast } from "./status-format";
import { StatusNotice } from "./status-notice";

const isOpen = (incident: Incident) => !incident.resolved_at && incident.status !== "resolved";

/** Open incidents first, each group newest first. */
export function orderIncidents(incidents: readonly Incident[]): Incident[] {
  const newest = (a: Incident, b: Incident) => Date.parse(b.started_at) - Date.parse(a.started_at);
  return [...incidents.filter(isOpen).sort(newest), ...incidents.filter((i) => !isOpen(i)).sort(newest)];
}

function badgeVariant(incident: Incident): BadgeVariant {
  if (!isOpen(incident)) return "ok";
  if (incident.impact === "maintenance") return "neutral";
  return incident.impact === "major" || incident.impact === "critical" ? "bad" : "warn";
}

const words = (text: string) => text.replace(/[_-]+/g, " ").replace(/^\w/, (c) => c.toUpperCase());

export function IncidentList({ incidents, components }: { incidents: readonly Incident[]; components: readonly StatusComponent[] }) {
  const names = new Map(components.map((c) => [c.key, c.name]));
  if (!incidents.length) {
    return <p className="rounded-card border border-line bg-surface p-5 text-ink-muted">No incidents in the last 14 days.</p>;
  }
  return (
    <ul className="flex flex-col gap-4">
      {orderIncidents(incidents).map((incident) => {
        const open = isOpen(incident);
        const affected = incident.component_keys.map((key) => names.get(key) ?? key);
        return (
          <li key={incident.id} data-incident={open ? "open" : "resolved"} className="rounded-card border border-line bg-surface p-5">
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={badgeVariant(incident)}>{open ? words(incident.status || "Open") : "Resolved"}</Badge>
              {incident.impact ? <span className="text-xs text-ink-subtle uppercase">{words(incident.impact)} impact</span> : null}
            </div>
            <StatusNotice
              title={incident.title}
              body={incident.body}
              facts={[
                { label: "Started", value: formatSast(incident.started_at), time: true },
                { label: "Resolved", value: incident.resolved_at ? formatSast(incident.resolved_at) : null, time: true },
                { label: "Affects", value: affected.join(", ") || null },
              ]}
            />
          </li>
        );
      })}
    </ul>
  );
}
