// Notices for clients, open incidents and parts of the service not fully working.
import { AlertTriangle, Bell, Info, ShieldAlert } from "lucide-react";
import { Link } from "react-router";
import { formatDate, formatDateTime } from "@/shared/dates";
import { Card } from "@/web/components/ui/card";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { useClientNotices } from "../api/get-notices";

const COMPONENT_WORDS: Record<string, string> = { degraded: "Slower than usual", maintenance: "Under maintenance", down: "Not working" };

export function NoticesSection() {
  const notices = useClientNotices();
  const data = notices.data;
  const nothing = data && data.data.length === 0 && data.incidents.length === 0 && data.components.length === 0;
  return (
    <Card className="p-5 sm:p-6" aria-labelledby="notices-heading">
      <h2 id="notices-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <Bell aria-hidden="true" className="size-5 text-accent-ink" />
        Notices
      </h2>
      {notices.isPending ? (
        <Skeleton className="mt-4 h-16 w-full" />
      ) : !data ? (
        <p className="mt-3 text-sm text-ink-muted">We couldn't load notices just now.</p>
      ) : nothing ? (
        <p className="mt-3 text-sm text-ink-muted">
          No notices right now: everything is running normally. See the{" "}
          <Link to="/status" className="text-accent-ink underline">
            status page
          </Link>{" "}
          any time.
        </p>
      ) : (
        <ul className="mt-4 flex flex-col gap-3">
          {data.incidents.map((incident) => (
            <li key={incident.id} className="rounded-xl border border-bad/40 bg-bad/10 p-4">
              <p className="flex items-center gap-2 font-semibold text-ink">
                <ShieldAlert aria-hidden="true" className="size-4 text-bad" />
                {incident.title}
              </p>
              {incident.body ? <p className="mt-1 text-sm text-ink-muted">{incident.body}</p> : null}
              <p className="mt-1 text-xs text-ink-subtle">
                Since {formatDateTime(incident.started_at)} (SAST) · {incident.status}
              </p>
            </li>
          ))}
          {data.components.map((c) => (
            <li key={c.key} className="rounded-xl border border-warn/40 bg-warn/10 p-4">
              <p className="flex items-center gap-2 font-semibold text-ink">
                <AlertTriangle aria-hidden="true" className="size-4 text-warn" />
                {c.name}: {COMPONENT_WORDS[c.status] ?? c.status}
              </p>
              {c.message ? <p className="mt-1 text-sm text-ink-muted">{c.message}</p> : null}
            </li>
          ))}
          {data.data.map((notice) => (
            <li
              key={notice.id}
              className={cn(
                "rounded-xl border p-4",
                notice.severity === "critical"
                  ? "border-bad/40 bg-bad/10"
                  : notice.severity === "warning"
                    ? "border-warn/40 bg-warn/10"
                    : "border-line bg-surface-raised",
              )}
            >
              <p className="flex items-center gap-2 font-semibold text-ink">
                <Info aria-hidden="true" className="size-4 text-accent-ink" />
                {notice.title}
              </p>
              {notice.body ? <p className="mt-1 text-sm whitespace-pre-line text-ink-muted">{notice.body}</p> : null}
              <p className="mt-1 text-xs text-ink-subtle">{formatDate(notice.starts_at ?? notice.created_at)}</p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
