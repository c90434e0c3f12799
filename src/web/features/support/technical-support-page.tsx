// /technical-support: checklists for the common problems (tick them off as you go), with the
// longer guides in the help centre and a person to talk to when the list runs out. ?device=
// (the client portal links here with the client's own device) puts that device's guide first.
import { useQuery } from "@tanstack/react-query";
import { Activity, BookOpen, Gauge, MonitorSmartphone } from "lucide-react";
import { useId, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { overallStatus, STATUS_LABELS } from "@/shared/status";
import { Container } from "@/web/components/ui/container";
import { cn } from "@/web/lib/cn";
import { useSupportHours } from "@/web/lib/queries/settings";
import { statusQueryOptions } from "@/web/lib/queries/status";
import { COMMON_FIXES, type CommonFix } from "./common-fixes";
import { ContactButtons, greeting } from "./contact-buttons";
import { findGuide } from "./device-guides";

export function TechnicalSupportPage() {
  const { data: status } = useQuery(statusQueryOptions());
  const overall = status?.overall ?? overallStatus(status?.data);
  const hours = useSupportHours();
  const [params] = useSearchParams();
  const guide = findGuide(params.get("device"));
  return (
    <Container className="py-14 sm:py-20">
      <div className="flex max-w-3xl flex-col gap-4">
        <p className="text-sm font-semibold tracking-widest text-accent-ink uppercase">Technical support</p>
        <h1 className="text-3xl font-bold tracking-tight text-balance text-ink sm:text-4xl">Fix playback and sign-in problems</h1>
        <p className="text-lg text-pretty text-ink-muted">
          Most problems clear up with a few quick checks. Pick what you're seeing and work down the list, ticking off each step.
        </p>
      </div>

      {guide ? (
        <Link
          to={`/setup-guide?device=${guide.device}`}
          className="mt-8 flex min-h-14 max-w-3xl items-center gap-3 rounded-xl border border-accent/40 bg-accent-soft px-4 py-3 transition-colors hover:border-accent"
        >
          <MonitorSmartphone aria-hidden="true" className="size-5 shrink-0 text-accent-ink" />
          <span className="text-ink-muted">
            <span className="font-semibold text-ink">Your {guide.label}:</span> go through its setup guide step by step first
          </span>
        </Link>
      ) : null}

      <div className="mt-8 grid gap-3 sm:grid-cols-2">
        <Link
          to="/status"
          className="flex min-h-14 items-center gap-3 rounded-xl border border-line bg-surface px-4 py-3 transition-colors hover:border-line-strong"
        >
          <Activity
            aria-hidden="true"
            className={cn("size-5 shrink-0", overall === "down" ? "text-bad" : overall === "maintenance" ? "text-sky-300" : "text-ok")}
          />
          <span className="text-ink-muted">
            <span className="font-semibold text-ink">System status:</span> {STATUS_LABELS[overall]}
          </span>
        </Link>
        <Link
          to="/stream-test"
          className="flex min-h-14 items-center gap-3 rounded-xl border border-line bg-surface px-4 py-3 transition-colors hover:border-line-strong"
        >
          <Gauge aria-hidden="true" className="size-5 shrink-0 text-accent-ink" />
          <span className="text-ink-muted">
            <span className="font-semibold text-ink">Run the stream test</span> to check your connection
          </span>
        </Link>
      </div>

      <nav aria-label="Problems" className="mt-10">
        <ul className="flex flex-wrap gap-2">
          {COMMON_FIXES.map((fix) => (
            <li key={fix.id}>
              <a
                href={`#${fix.id}`}
                className="inline-flex min-h-11 items-center rounded-full border border-line bg-surface px-4 text-sm text-ink-muted transition-colors hover:border-line-strong hover:text-ink"
              >
                {fix.title}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <div className="mt-10 grid items-start gap-6 lg:grid-cols-2">
        {COMMON_FIXES.map((fix) => (
          <Checklist key={fix.id} fix={fix} />
        ))}
      </div>

      <section aria-labelledby="contact-heading" className="mt-14 max-w-3xl rounded-card border border-line bg-surface-raised p-6 sm:p-8">
        <h2 id="contact-heading" className="text-xl font-semibold text-ink">
          Still not working? Contact us
        </h2>
        <p className="mt-2 mb-5 text-pretty text-ink-muted">
          Tell us what you've tried, the channel and the time, and send a photo of the screen or your stream test result. We answer {hours}.
        </p>
        <ContactButtons
          message={(name) =>
            `${greeting(name)}I've worked through the technical support checklist${guide ? ` on my ${guide.label}` : ""} and still need help.`
          }
        />
      </section>
    </Container>
  );
}

function Checklist({ fix }: { fix: CommonFix }) {
  const [done, setDone] = useState<ReadonlySet<number>>(new Set());
  const baseId = useId();
  const toggle = (index: number) =>
    setDone((prev) => {
      const next = new Set(prev);
      if (next.has(index)) next.delete(index);
      else next.add(index);
      return next;
    });
  return (
    <section
      id={fix.id}
      aria-labelledby={`${fix.id}-heading`}
      className="scroll-mt-24 rounded-card border border-line bg-surface p-5 sm:p-7"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${fix.id}-heading`} className="text-xl font-semibold text-ink">
          {fix.title}
        </h2>
        <p className="text-sm text-ink-subtle tabular" aria-live="polite">
          {done.size} of {fix.steps.length} done
        </p>
      </div>
      <p className="mt-1 text-ink-muted">{fix.symptom}</p>
      <ol className="mt-5 flex flex-col gap-1">
        {fix.steps.map((step, index) => {
          const id = `${baseId}-${index}`;
          return (
            <li key={step}>
              <label
                htmlFor={id}
                className="flex min-h-11 cursor-pointer items-start gap-3 rounded-lg px-2 py-2.5 transition-colors hover:bg-surface-raised"
              >
                <input
                  id={id}
                  type="checkbox"
                  checked={done.has(index)}
                  onChange={() => toggle(index)}
                  className="mt-0.5 size-5 shrink-0 accent-accent"
                />
                <span className={cn("text-pretty", done.has(index) ? "text-ink-subtle line-through" : "text-ink-muted")}>
                  <span className="sr-only">Step {index + 1}: </span>
                  {step}
                </span>
              </label>
            </li>
          );
        })}
      </ol>
      {fix.search ? (
        <Link
          to={`/knowledge-base?q=${encodeURIComponent(fix.search)}`}
          className="mt-4 inline-flex min-h-11 items-center gap-2 font-medium text-accent-ink underline-offset-4 hover:underline"
        >
          <BookOpen aria-hidden="true" className="size-4" />
          Search the Help Centre for “{fix.search}”
        </Link>
      ) : null}
    </section>
  );
}
