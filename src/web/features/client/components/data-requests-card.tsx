// "Correct or delete my data" (POPIA s24; issue 46 item 7): the client asks for a correction (what
// is wrong, what it should say) or for their data to be deleted, and follows each request here:
// when we will answer by, and what we did. What deletion keeps, and why, is said before they ask.
import { zodResolver } from "@hookform/resolvers/zod";
import { ShieldCheck } from "lucide-react";
import {
  DATA_REQUEST_DAYS,
  DATA_REQUEST_KIND_LABELS,
  DATA_REQUEST_STATUS_LABELS,
  type DataRequestKind,
  dataRequestSchema,
  ERASURE_KEEPS,
} from "@/shared/data-request-schemas";
import { formatDate } from "@/shared/dates";
import { Badge, type BadgeVariant } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { useCreateDataRequest, useDataRequests } from "../api/data-requests";
import { Field } from "./field";
import { RequestHistory, useRequestForm } from "./request-card";

const STATUS_VARIANTS: Record<string, BadgeVariant> = { open: "warn", corrected: "ok", erased: "ok", refused: "bad" };

type FormValues = { kind: DataRequestKind; details: string; correction: string };

export function DataRequestsCard() {
  const requests = useDataRequests();
  const create = useCreateDataRequest();
  const {
    register,
    onSubmit,
    watch,
    formState: { errors, isSubmitting },
  } = useRequestForm<FormValues>({
    resolver: zodResolver(dataRequestSchema) as never,
    defaultValues: { kind: "correction", details: "", correction: "" },
    fields: ["kind", "details", "correction"],
    keep: "kind",
    send: async (values) => {
      const made = await create.mutateAsync(values.kind === "erasure" ? { kind: "erasure", details: values.details } : values);
      return `We will answer by ${formatDate(made.due_at)}.`;
    },
  });
  const kind = watch("kind");

  return (
    <Card className="p-5 sm:p-6" aria-labelledby="data-requests-heading">
      <h2 id="data-requests-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <ShieldCheck aria-hidden="true" className="size-5 text-accent-ink" />
        Correct or delete my data
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Ask us to correct something we hold about you that is wrong, or to delete your data. We answer within {DATA_REQUEST_DAYS} days and
        tell you what we did.
      </p>
      <form onSubmit={onSubmit} noValidate className="mt-4 flex flex-col gap-4">
        <Field id="data-request-kind" label="What would you like?" error={errors.kind?.message}>
          <Select {...register("kind")}>
            <option value="correction">Correct my data</option>
            <option value="erasure">Delete my data</option>
          </Select>
        </Field>
        {kind === "erasure" ? (
          <>
            <p className="rounded-lg bg-surface-overlay px-3 py-2 text-sm text-ink">
              Deleting your data closes your portal account. {ERASURE_KEEPS}
            </p>
            <Field id="data-request-details" label="Why (optional)" error={errors.details?.message}>
              <Textarea rows={2} {...register("details")} />
            </Field>
          </>
        ) : (
          <>
            <Field id="data-request-details" label="What is wrong?" error={errors.details?.message}>
              <Textarea rows={2} placeholder="e.g. My surname is spelt wrong" {...register("details")} />
            </Field>
            <Field id="data-request-correction" label="What should it say?" error={errors.correction?.message}>
              <Textarea rows={2} placeholder="e.g. Nkosi" {...register("correction")} />
            </Field>
          </>
        )}
        <Button type="submit" disabled={isSubmitting} className="self-start">
          {isSubmitting ? "Sending..." : "Send request"}
        </Button>
      </form>

      <RequestHistory title="Your privacy requests" requests={requests}>
        {(r) => (
          <li key={r.id} className="rounded-xl border border-line bg-surface-raised p-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <p className="font-semibold text-ink">{DATA_REQUEST_KIND_LABELS[r.kind]}</p>
              <Badge variant={STATUS_VARIANTS[r.status] ?? "neutral"}>{DATA_REQUEST_STATUS_LABELS[r.status]}</Badge>
            </div>
            {r.details ? <p className="mt-1 text-sm text-ink-muted">{r.details}</p> : null}
            {r.correction ? <p className="mt-1 text-sm text-ink-muted">Should say: {r.correction}</p> : null}
            {r.outcome ? (
              <p className="mt-2 rounded-lg bg-surface-overlay px-3 py-2 text-sm text-ink">
                <span className="font-semibold">Our answer:</span> {r.outcome}
              </p>
            ) : null}
            <p className="mt-1 text-xs text-ink-subtle">
              Asked {formatDate(r.created_at)}
              {r.status === "open" ? ` · we answer by ${formatDate(r.due_at)}` : ""}
            </p>
          </li>
        )}
      </RequestHistory>
    </Card>
  );
}
