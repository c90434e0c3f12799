// /status: the overall verdict, scheduled maintenance, each component with its 90-day history, incidents, and a
// 'Check now' that runs the health monitor and refetches 2 s later (spec §7).
import { useQuery } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { Link } from "react-router";
import type { ComponentStatus, StatusComponent, StatusResponse } from "@/shared/api";
import { overallStatus, STATUS_LABELS } from "@/shared/status";
import { Badge, type BadgeVariant } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { Skeleton } from "@/web/components/ui/skeleton";
import { statusQueryOptions } from "@/web/lib/queries/status";
import { useRunStatusCheck } from "./api/run-status-check";
import { HistoryBars } from "./history-bars";
import { IncidentList } from "./incident-list";
import { MaintenanceList } from "./maintenance-list";
import { OverallBanner } from "./overall-banner";
import { formatSast, formatUptime, uptimeOver } from "./status-format";
import { StatusSubscribe } from "./status-subscribe";

const BADGE: Record<ComponentStatus, BadgeVariant> = {
  operational: "ok",
  degraded: "warn",
  maintenance: "neutral",
  down: "bad",
};

export function StatusPage() {
  const { data, isPending, isError, refetch, isRefetching } = useQuery(statusQueryOptions());
  return (
    <Container className="py-14 sm:py-20">
      <div className="flex max-w-4xl flex-col gap-3">
        <p className="text-sm font-semibold tracking-widest text-accent-ink uppercase">System status</p>
        <h1 className="text-3xl font-bold tracking-tight text-balance text-ink sm:text-4xl">Service status</h1>
        <p className="text-lg text-pretty text-ink-muted">
          How each of our services is doing right now, with 90 days of history. This page refreshes by itself every minute.
        </p>
      </div>
      <div className="mt-10 flex max-w-4xl flex-col gap-10">
        {isPending ? (
          <StatusSkeleton />
        ) : isError ? (
          <div role="alert" className="flex flex-col items-start gap-4 rounded-card border border-line bg-surface p-6">
            <p className="text-ink">We couldn't load the status just now.</p>
            <p className="text-ink-muted">
              This page tries again every minute. If you can't stream, the{" "}
              <Link to="/technical-support" className="text-accent-ink underline underline-offset-4">
                technical support checklist
              </Link>{" "}
              may help.
            </p>
            <Button variant="outline" onClick={() => void refetch()} disabled={isRefetching}>
              <RefreshCw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : (
          <StatusBody status={data} />
        )}
      </div>
    </Container>
  );
}

function StatusBody({ status }: { status: StatusResponse }) {
  const overall = status.overall ?? overallStatus(status.data);
  return (
    <>
      <div className="flex flex-col gap-4">
        <OverallBanner overall={overall} />
        <CheckNow lastRun={status.checked_at} />
      </div>

      <MaintenanceList maintenance={status.maintenance ?? []} components={status.components} />

      <section aria-labelledby="components-heading" className="flex flex-col gap-4">
        <h2 id="components-heading" className="text-xl font-semibold text-ink">
          Services
        </h2>
        {status.components.length ? (
          <ul className="flex flex-col gap-4">
            {status.components.map((component) => (
              <ComponentCard key={component.id} component={component} />
            ))}
          </ul>
        ) : (
          <p className="text-ink-muted">No services are being monitored yet.</p>
        )}
        <Legend />
      </section>

      <section aria-labelledby="incidents-heading" className="flex flex-col gap-4">
        <h2 id="incidents-heading" className="text-xl font-semibold text-ink">
          Incidents
        </h2>
        <IncidentList incidents={status.incidents} components={status.components} />
      </section>

      <StatusSubscribe />
    </>
  );
}

function ComponentCard({ component }: { component: StatusComponent }) {
  const uptime = uptimeOver(component.history);
  const checked = formatSast(component.last_checked_at);
  return (
    <li data-component={component.key} className="flex flex-col gap-4 rounded-card border border-line bg-surface p-5 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="text-lg font-semibold text-ink">{component.name}</h3>
          {component.description ? <p className="text-sm text-ink-muted">{component.description}</p> : null}
        </div>
        <Badge variant={BADGE[component.status] ?? "neutral"}>{STATUS_LABELS[component.status] ?? component.status}</Badge>
      </div>
      {component.message ? <p className="rounded-lg bg-surface-raised px-4 py-3 text-sm text-ink">{component.message}</p> : null}
      <HistoryBars name={component.name} days={component.history} />
      <p className="flex flex-wrap justify-between gap-x-4 gap-y-1 text-sm text-ink-muted">
        <span className="tabular">{uptime === null ? "No uptime data yet" : `${formatUptime(uptime)} uptime over 90 days`}</span>
        <span className="tabular">{checked ? `Last check ${checked}` : "Not checked yet"}</span>
      </p>
    </li>
  );
}

function CheckNow({ lastRun }: { lastRun: string | null }) {
  const check = useRunStatusCheck();
  const ranAt = formatSast(check.data?.checked_at ?? lastRun);
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-sm text-ink-muted" aria-live="polite">
        {check.isPending
          ? "Checking every service now…"
          : check.isError
            ? "We couldn't run a check just now. Please try again in a minute."
            : check.data && !check.data.ran
              ? `A check ran moments ago${ranAt ? ` (${ranAt})` : ""}, so you're seeing its results.`
              : ranAt
                ? `Health check last ran ${ranAt}.`
                : "No health check has run yet."}
      </p>
      <Button variant="outline" onClick={() => check.mutate()} disabled={check.isPending} className="sm:shrink-0">
        <RefreshCw aria-hidden="true" className={check.isPending ? "motion-safe:animate-spin" : undefined} />
        {check.isPending ? "Checking…" : "Check now"}
      </Button>
    </div>
  );
}

function Legend() {
  const items: [string, string][] = [
    ["bg-ok", "Operational"],
    ["bg-warn", "Degraded"],
    ["bg-sky-400", "Maintenance"],
    ["bg-bad", "Down"],
    ["bg-line-strong", "No data"],
  ];
  return (
    <ul aria-label="Colour key" className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-ink-muted">
      {items.map(([colour, label]) => (
        <li key={label} className="flex items-center gap-2">
          <span aria-hidden="true" className={`size-3 rounded-[3px] ${colour}`} />
          {label}
        </li>
      ))}
    </ul>
  );
}

function StatusSkeleton() {
  return (
    <div role="status" aria-busy="true" className="flex flex-col gap-4">
      <span className="sr-only">Loading...</span>
      <Skeleton className="h-28 rounded-card" />
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-40 rounded-card" />
      ))}
    </div>
  );
}
