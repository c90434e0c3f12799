// /admin/panel: the IPTV panel lines are made on. Its mode and whether it answers (with the
// panel's reason when it does not), the credit balance against the warning level, the panel's
// work (tasks for the owner, failed jobs with Retry, jobs on their way, what was done), the
// differences the sync found with a fix for each (drift/), how long the credits last against the
// renewals due, which panel package each of our packages buys, and the stream server URL and how
// long panel reads are kept. Panel reads are kept on the server; Refresh reads the panel once, now.
import { CircleCheck, CircleX, Coins, PlugZap, RotateCcw, Unplug } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { AdminPanelView } from "@/shared/business-schemas";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";
import { useAdminPackages } from "../api/get-admin-packages";
import { AdminPageHeader } from "../components/admin-page-header";
import { formatDate, formatDateTime } from "../components/format";
import { usePanel } from "./api/get-panel";
import { useProvisioningJobs } from "./api/get-provisioning-jobs";
import { useRefreshPanel } from "./api/refresh-panel";
import { DriftList } from "./drift/drift-list";
import { OutOfCreditsAlert } from "./out-of-credits-alert";
import { PackageMappingForm } from "./package-mapping-form";
import { creditsText, MODE_LABELS, MODE_TEXT } from "./panel-labels";
import { PanelSettingsForm } from "./panel-settings-form";
import { JobsBoard } from "./provisioning-jobs";

export function PanelSection() {
  const panel = usePanel();
  return (
    <>
      <AdminPageHeader
        title="IPTV panel"
        description="Lines are made on your panel the moment a client pays, and switched off and on as their status changes. Here is what the panel did, and what it needs from you."
      />
      <div className="flex flex-col gap-6">
        <OutOfCreditsAlert />
        {panel.isPending ? (
          <StatusSkeleton />
        ) : panel.data ? (
          <PanelStatus view={panel.data} />
        ) : (
          <LoadFailed what="The panel's state" message={panel.error?.message} onRetry={() => panel.refetch()} />
        )}
        <PanelCard id="panel-jobs" title="Panel jobs" description="One job per payment, trial or change of status: each is done once.">
          <Jobs />
        </PanelCard>
        {panel.data && panel.data.mode !== "manual" ? (
          <PanelCard
            id="panel-drift"
            title="Differences with the panel"
            description="Each night the panel's lines are compared with your clients. Push yours to the panel, or accept the panel's: each fix happens once."
          >
            <DriftList lastCheck={panel.data.last_check} />
          </PanelCard>
        ) : null}
        <PanelCard
          id="panel-mapping"
          title="Package mapping"
          description="Which of the panel's packages each of your packages buys. A payment makes or extends the line with it."
        >
          {panel.data ? <Mapping view={panel.data} /> : <Skeleton className="h-40 w-full" />}
        </PanelCard>
        <PanelCard
          id="panel-settings"
          title="Stream server and panel reads"
          description="The server your customers' apps connect to: their M3U and EPG links and QR code are built on it, in every mode."
        >
          {panel.data ? <PanelSettingsForm view={panel.data} /> : <Skeleton className="h-24 w-full" />}
        </PanelCard>
      </div>
    </>
  );
}

function Jobs() {
  const all = useProvisioningJobs();
  const failed = useProvisioningJobs("failed");
  const tasks = useProvisioningJobs("task");
  const error = all.error ?? failed.error ?? tasks.error;
  if (error)
    return (
      <LoadFailed
        what="The panel jobs"
        message={error.message}
        onRetry={() => {
          void all.refetch();
          void failed.refetch();
          void tasks.refetch();
        }}
      />
    );
  if (!all.data || !failed.data || !tasks.data) return <Skeleton className="h-32 w-full" />;
  return <JobsBoard all={all.data} failed={failed.data} tasks={tasks.data} />;
}

function Mapping({ view }: { view: AdminPanelView }) {
  const packages = useAdminPackages();
  if (view.mode === "manual")
    return (
      <p className="text-sm text-ink-muted">
        In manual mode you choose the package on your panel for each task, so there is nothing to map here. Each task names the package the
        client paid for.
      </p>
    );
  if (packages.error) return <LoadFailed what="Your packages" message={packages.error.message} onRetry={() => packages.refetch()} />;
  if (!packages.data) return <Skeleton className="h-40 w-full" />;
  return <PackageMappingForm view={view} packages={packages.data} />;
}

function PanelStatus({ view }: { view: AdminPanelView }) {
  const refresh = useRefreshPanel();
  const credits = creditsText(view);
  const manual = view.mode === "manual";
  return (
    <div className="grid gap-4 md:grid-cols-3" data-testid="panel-status" data-mode={view.mode} data-connected={view.connected}>
      <StatusTile label="Mode" icon={<PlugZap aria-hidden="true" className="size-5 text-ink-subtle" />}>
        <p className="flex flex-wrap items-center gap-2 text-xl font-bold text-ink">
          {MODE_LABELS[view.mode]}
          {view.mode === "sandbox" ? <Badge variant="warn">Test lines</Badge> : null}
        </p>
        <p className="text-sm text-ink-muted">{MODE_TEXT[view.mode]}</p>
      </StatusTile>

      <StatusTile
        label="Connection"
        tone={manual ? undefined : view.connected ? undefined : "bad"}
        icon={
          manual ? (
            <Unplug aria-hidden="true" className="size-5 text-ink-subtle" />
          ) : view.connected ? (
            <CircleCheck aria-hidden="true" className="size-5 text-ok" />
          ) : (
            <CircleX aria-hidden="true" className="size-5 text-bad" />
          )
        }
      >
        <p
          className={cn("text-xl font-bold", manual ? "text-ink" : view.connected ? "text-ok" : "text-bad")}
          data-testid="panel-connection"
        >
          {manual ? "Not needed" : view.connected ? "Connected" : "Not connected"}
        </p>
        {manual ? (
          <p className="text-sm text-ink-muted">Manual mode doesn't talk to a panel: you do each step on it yourself.</p>
        ) : view.error ? (
          <p role="alert" className="text-sm break-words text-ink">
            {view.error}
          </p>
        ) : (
          <p className="text-sm text-ink-muted" data-testid="panel-read-at">
            The panel answered.{view.read_at ? ` Read ${formatDateTime(view.read_at)}; kept for ${view.cache_minutes} min.` : ""}
          </p>
        )}
        {manual ? null : (
          <Button
            variant="outline"
            size="sm"
            className="mt-auto self-start"
            onClick={() =>
              refresh.mutate(undefined, {
                onError: (error) => toast.error("Couldn't refresh", { description: error.message }),
              })
            }
            disabled={refresh.isPending}
          >
            <RotateCcw aria-hidden="true" />
            {refresh.isPending ? "Refreshing..." : "Refresh"}
          </Button>
        )}
      </StatusTile>

      <StatusTile
        label="Credits"
        tone={view.low_credits ? "warn" : undefined}
        icon={<Coins aria-hidden="true" className={cn("size-5", view.low_credits ? "text-warn" : "text-ink-subtle")} />}
      >
        <p className={cn("text-3xl font-bold tabular", view.low_credits ? "text-warn" : "text-ink")} data-testid="panel-credits">
          {credits ?? "—"}
        </p>
        <p className="text-sm text-ink-muted">
          {credits === null
            ? view.mode === "sandbox"
              ? "The sandbox panel doesn't count credits."
              : manual
                ? "Not known in manual mode: your panel shows them."
                : "Unknown while the panel can't be read."
            : view.low_credits
              ? `Low: below your warning level of ${view.credit_warning}. Top up soon, or new lines will fail.`
              : `You're warned when they fall below ${view.credit_warning}.`}
          {credits === null ? null : (
            <>
              {" "}
              <Link
                to="/admin/settings"
                className="text-accent-ink underline decoration-accent-ink/40 underline-offset-2 hover:decoration-accent-ink"
              >
                Change the warning level
              </Link>
            </>
          )}
        </p>
        {view.runway && view.runway.renewals_due_30d > 0 ? <RunwayText view={view} runway={view.runway} credits={credits} /> : null}
      </StatusTile>
    </div>
  );
}

/** How far the credits go: what the renewals due need, and when the balance runs out — or that it is not known. */
function RunwayText({
  view,
  runway,
  credits,
}: {
  view: AdminPanelView;
  runway: NonNullable<AdminPanelView["runway"]>;
  credits: string | null;
}) {
  const due = `${runway.renewals_due_30d} renewal${runway.renewals_due_30d === 1 ? "" : "s"} due in 30 days`;
  if (runway.credits_needed_30d === null || runway.credits_known === false) {
    return (
      <p className="text-sm text-ink-muted" data-testid="panel-runway">
        {due}.{" "}
        {view.mode === "manual"
          ? "How long your credits last is not known in manual mode: check the balance on your panel."
          : runway.credits_needed_30d === null
            ? "What they cost is not known until your packages are mapped and the panel answers."
            : `They need ${runway.credits_needed_30d} credits; how long yours last is not known while the panel doesn't report a balance.`}
      </p>
    );
  }
  return (
    <p className="text-sm text-ink-muted" data-testid="panel-runway">
      {due} need {runway.credits_needed_30d} credits.{" "}
      {runway.runs_out_on ? (
        <strong className="text-warn">Credits run out on {formatDate(new Date(`${runway.runs_out_on}T12:00:00+02:00`))}.</strong>
      ) : credits === null ? null : (
        "Your credits cover them."
      )}
    </p>
  );
}

function StatusTile({ label, icon, tone, children }: { label: string; icon: ReactNode; tone?: "warn" | "bad"; children: ReactNode }) {
  return (
    <section
      aria-label={label}
      className={cn(
        "flex flex-col gap-2 rounded-card border bg-surface p-4 sm:p-5",
        tone === "warn" ? "border-warn/50 bg-warn/5" : tone === "bad" ? "border-bad/50 bg-bad/5" : "border-line",
      )}
    >
      <span className="flex items-center justify-between gap-2 text-sm text-ink-muted">
        {label}
        {icon}
      </span>
      {children}
    </section>
  );
}

function PanelCard({ id, title, description, children }: { id: string; title: string; description: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex min-w-0 flex-col gap-4 rounded-card border border-line bg-surface p-4 sm:p-6">
      <div className="flex flex-col gap-1">
        <h2 id={id} className="text-lg font-semibold text-ink">
          {title}
        </h2>
        <p className="text-sm text-ink-muted">{description}</p>
      </div>
      {children}
    </section>
  );
}

function LoadFailed({ what, message, onRetry }: { what: string; message?: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-card border border-bad/40 bg-bad/5 p-4 text-sm">
      <p className="font-medium text-ink">{what} couldn't load.</p>
      {message ? <p className="text-ink-muted">{message}</p> : null}
      <Button variant="outline" size="sm" onClick={onRetry}>
        Try Again
      </Button>
    </div>
  );
}

function StatusSkeleton() {
  return (
    <div className="grid gap-4 md:grid-cols-3" role="status" aria-busy="true">
      <span className="sr-only">Loading...</span>
      {[0, 1, 2].map((i) => (
        <div key={i} className="flex flex-col gap-3 rounded-card border border-line bg-surface p-5">
          <Skeleton className="h-4 w-1/3" />
          <Skeleton className="h-7 w-1/2" />
          <Skeleton className="h-10 w-full" />
        </div>
      ))}
    </div>
  );
}
