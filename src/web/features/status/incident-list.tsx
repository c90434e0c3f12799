// Incidents on /status: open ones first (newest first), then the recently resolved.
import type { Incident, StatusComponent } from "@/shared/api";
import { Badge, type BadgeVariant } from "@/web/components/ui/badge";
import { formatSast } from "./status-format";

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
            <h3 className="mt-3 text-lg font-semibold text-ink">{incident.title}</h3>
            {incident.body ? <p className="mt-1 whitespace-pre-line text-pretty text-ink-muted">{incident.body}</p> : null}
            <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm text-ink-subtle sm:grid-cols-[auto_1fr]">
              <dt>Started</dt>
              <dd className="text-ink-muted tabular">{formatSast(incident.started_at)}</dd>
              {incident.resolved_at ? (
                <>
                  <dt>Resolved</dt>
                  <dd className="text-ink-muted tabular">{formatSast(incident.resolved_at)}</dd>
                </>
              ) : null}
              {affected.length ? (
                <>
                  <dt>Affects</dt>
                  <dd className="text-ink-muted">{affected.join(", ")}</dd>
                </>
              ) : null}
            </dl>
          </li>
        );
      })}
    </ul>
  );
}
