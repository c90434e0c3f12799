// The panel's work as the owner reads it: tasks waiting for them (manual mode), failed jobs with
// the panel's own words, its raw answer and Retry, jobs on their way, and what was done lately.
// JobRows also lists one client's jobs on their page.
import { ChevronRight, Hand, RotateCcw, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { ProvisioningJob } from "@/shared/business-schemas";
import { Button } from "@/web/components/ui/button";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";
import { formatDateTime } from "../components/format";
import { StatusBadge } from "../components/status-badge";
import { useRetryProvisioningJob } from "./api/retry-provisioning-job";
import { MarkDoneButton, PasteLoginForm } from "./complete-task-form";
import { actionLabel, needsLogin, plural } from "./panel-labels";

const RECENT_DONE = 10;

export function JobsBoard({ failed, tasks, all }: { failed: ProvisioningJob[]; tasks: ProvisioningJob[]; all: ProvisioningJob[] }) {
  const inFlight = all.filter((j) => j.status === "pending" || j.status === "running");
  const done = all.filter((j) => j.status === "done").slice(0, RECENT_DONE);
  return (
    <div className="flex flex-col gap-6">
      {tasks.length ? (
        <JobGroup id="jobs-tasks" title="Waiting for you" count={tasks.length}>
          {tasks.map((job) => (
            <TaskCard key={job.id} job={job} />
          ))}
        </JobGroup>
      ) : null}
      {failed.length ? (
        <JobGroup id="jobs-failed" title="Failed" count={failed.length}>
          {failed.map((job) => (
            <FailedJobCard key={job.id} job={job} />
          ))}
        </JobGroup>
      ) : null}
      {inFlight.length ? (
        <JobGroup id="jobs-in-flight" title="On their way to the panel" count={inFlight.length}>
          <JobRows jobs={inFlight} />
        </JobGroup>
      ) : null}
      <JobGroup id="jobs-done" title="Done recently" count={done.length}>
        {done.length ? (
          <JobRows jobs={done} />
        ) : (
          <p className="text-sm text-ink-muted">Nothing done on the panel yet. A paid order makes its line here within seconds.</p>
        )}
      </JobGroup>
    </div>
  );
}

function JobGroup({ id, title, count, children }: { id: string; title: string; count: number; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h3 id={id} className="flex items-center gap-2 text-sm font-semibold tracking-wide text-ink-subtle uppercase">
        {title}
        <span className="rounded-full bg-surface-overlay px-2 py-0.5 text-xs tracking-normal text-ink-muted tabular">{count}</span>
      </h3>
      {children}
    </section>
  );
}

/** 'Create line · 3 Months for Thandi Nkosi' with the client's page a click away. */
function JobTitle({ job, showClient = true }: { job: ProvisioningJob; showClient?: boolean }) {
  return (
    <span className="min-w-0 font-medium text-ink">
      {actionLabel(job)}
      {job.package_name && (job.action === "create_line" || job.action === "extend_line") ? (
        <span className="text-ink-muted"> · {job.package_name}</span>
      ) : null}
      {showClient ? (
        <>
          {" "}
          <span className="text-ink-muted">for</span>{" "}
          <Link
            to={`/admin/client/${job.client_id}`}
            className="text-accent-ink underline decoration-accent-ink/40 underline-offset-2 hover:decoration-accent-ink"
          >
            {job.client_full_name || job.client_username}
          </Link>
        </>
      ) : null}
    </span>
  );
}

function FailedJobCard({ job }: { job: ProvisioningJob }) {
  return (
    <article
      aria-label={`Failed: ${actionLabel(job)} for ${job.client_full_name}`}
      data-job={job.id}
      className="flex flex-col gap-3 rounded-xl border border-bad/40 bg-bad/5 p-4"
    >
      <JobTitle job={job} />
      <p className="flex items-start gap-2 text-sm text-bad">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        <span className="min-w-0 break-words">
          {job.last_error || "The panel refused it."}
          {job.error_status ? <span className="ml-2 font-mono text-xs text-ink-subtle">{job.error_status}</span> : null}
        </span>
      </p>
      <p className="text-xs text-ink-subtle">
        {plural(job.attempts, "try", "tries")} · queued {formatDateTime(job.created_at)}
      </p>
      {job.panel_answer ? (
        <details className="group rounded-lg border border-line bg-surface-raised text-sm">
          <Summary className="px-3">The panel's answer</Summary>
          <pre className="overflow-x-auto border-t border-line p-3 font-mono text-xs break-all whitespace-pre-wrap text-ink">
            {job.panel_answer}
          </pre>
        </details>
      ) : null}
      <div className="flex flex-wrap items-center gap-2">
        <RetryButton job={job} />
      </div>
      <details className="group text-sm">
        <Summary>Did it on the panel yourself?</Summary>
        <div className="pt-2">
          {needsLogin(job) ? (
            <PasteLoginForm job={job} />
          ) : (
            <div className="flex flex-col items-start gap-2">
              <p className="text-ink-muted">Mark it done once the line is right on your panel.</p>
              <MarkDoneButton job={job} />
            </div>
          )}
        </div>
      </details>
    </article>
  );
}

/** A details' summary with a chevron that turns as it opens (the details needs className "group"). */
function Summary({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <summary
      className={cn(
        "flex min-h-11 cursor-pointer list-none items-center gap-2 text-ink-muted hover:text-ink [&::-webkit-details-marker]:hidden",
        className,
      )}
    >
      <ChevronRight aria-hidden="true" className="size-4 shrink-0 transition-transform group-open:rotate-90" />
      {children}
    </summary>
  );
}

function RetryButton({ job }: { job: ProvisioningJob }) {
  const retry = useRetryProvisioningJob();
  return (
    <Button
      size="sm"
      disabled={retry.isPending}
      aria-label={`Retry ${actionLabel(job).toLowerCase()} for ${job.client_full_name}`}
      onClick={() =>
        retry.mutate(job.id, {
          onSuccess: () => toast.success("Sent to the panel again", { description: `${actionLabel(job)} for ${job.client_full_name}.` }),
          onError: (error) => toast.error("Not retried", { description: error.message }),
        })
      }
    >
      <RotateCcw aria-hidden="true" />
      {retry.isPending ? "Retrying..." : "Retry"}
    </Button>
  );
}

function TaskCard({ job }: { job: ProvisioningJob }) {
  return (
    <article
      aria-label={`Task: ${actionLabel(job)} for ${job.client_full_name}`}
      data-job={job.id}
      className="flex flex-col gap-3 rounded-xl border border-special/50 bg-special/5 p-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <JobTitle job={job} />
        <StatusBadge status={job.status} />
      </div>
      <p className="flex items-start gap-2 text-sm text-ink">
        <Hand aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-special" />
        <span className="min-w-0 break-words">{job.instruction || `${actionLabel(job)} on your panel, then mark it done here.`}</span>
      </p>
      <p className="text-xs text-ink-subtle">Queued {formatDateTime(job.created_at)}</p>
      {needsLogin(job) ? (
        <PasteLoginForm job={job} />
      ) : (
        <div>
          <MarkDoneButton job={job} />
        </div>
      )}
    </article>
  );
}

/** A compact list: what, for whom (unless one client's own list), its state and when. */
export function JobRows({ jobs, showClient = true, className }: { jobs: ProvisioningJob[]; showClient?: boolean; className?: string }) {
  return (
    <ul className={cn("flex flex-col divide-y divide-line rounded-xl border border-line", className)}>
      {jobs.map((job) => (
        <li
          key={job.id}
          data-job={job.id}
          className="flex flex-col gap-1 px-3 py-2.5 text-sm sm:flex-row sm:items-center sm:justify-between sm:gap-3"
        >
          <span className="flex min-w-0 flex-col">
            <JobTitle job={job} showClient={showClient} />
            <span className="text-xs text-ink-subtle">{jobWhen(job)}</span>
            {job.status === "failed" && job.last_error ? <span className="text-xs break-words text-bad">{job.last_error}</span> : null}
            {job.status === "task" && job.instruction ? (
              <span className="text-xs break-words text-ink-muted">{job.instruction}</span>
            ) : null}
          </span>
          <span className="shrink-0">
            <StatusBadge status={job.status} />
          </span>
        </li>
      ))}
    </ul>
  );
}

function jobWhen(job: ProvisioningJob): string {
  switch (job.status) {
    case "done":
      return `Done ${formatDateTime(job.done_at ?? job.created_at)}`;
    case "pending":
      return job.attempts
        ? `${plural(job.attempts, "try", "tries")} so far · next ${formatDateTime(job.next_attempt_at)}`
        : `Queued ${formatDateTime(job.created_at)}`;
    case "running":
      return "With the panel now";
    default:
      return `Queued ${formatDateTime(job.created_at)}`;
  }
}
