// What an incident and a scheduled maintenance window say on the status page under their badge:
// the title, the details, and the facts (times in SAST, the components it affects).
import { Fragment } from "react";
import { cn } from "@/web/lib/cn";

export interface StatusFact {
  label: string;
  /** left out when null */
  value: string | null;
  /** a time: tabular figures */
  time?: boolean;
}

export function StatusNotice({ title, body, facts }: { title: string; body: string; facts: StatusFact[] }) {
  return (
    <>
      <h3 className="mt-3 text-lg font-semibold text-ink">{title}</h3>
      {body ? <p className="mt-1 whitespace-pre-line text-pretty text-ink-muted">{body}</p> : null}
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm text-ink-subtle sm:grid-cols-[auto_1fr]">
        {facts.map(({ label, value, time }) =>
          value ? (
            <Fragment key={label}>
              <dt>{label}</dt>
              <dd className={cn("text-ink-muted", time && "tabular")}>{value}</dd>
            </Fragment>
          ) : null,
        )}
      </dl>
    </>
  );
}
