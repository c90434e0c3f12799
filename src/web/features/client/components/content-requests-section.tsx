// Ask for a channel, film or series, and follow what became of each request.
import { zodResolver } from "@hookform/resolvers/zod";
import { Clapperboard } from "lucide-react";
import { formatDate } from "@/shared/dates";
import { CONTENT_REQUEST_TYPES, type ContentRequestInput, contentRequestSchema } from "@/shared/schemas";
import { Badge, type BadgeVariant } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { useCreateContentRequest } from "../api/create-content-request";
import { useContentRequests } from "../api/get-content-requests";
import { Field } from "./field";
import { RequestHistory, useRequestForm } from "./request-card";

const TYPE_LABELS: Record<(typeof CONTENT_REQUEST_TYPES)[number], string> = {
  channel: "Channel",
  film: "Film",
  series: "Series",
  other: "Something else",
};

const STATUS: Record<string, { label: string; variant: BadgeVariant }> = {
  new: { label: "Received", variant: "neutral" },
  in_progress: { label: "In progress", variant: "warn" },
  added: { label: "Added", variant: "ok" },
  declined: { label: "Not possible", variant: "bad" },
};

type FormValues = { request_type: ContentRequestInput["request_type"]; title: string; details: string };

export function ContentRequestsSection() {
  const requests = useContentRequests();
  const create = useCreateContentRequest();
  const {
    register,
    onSubmit,
    formState: { errors, isSubmitting },
  } = useRequestForm<FormValues>({
    resolver: zodResolver(contentRequestSchema) as never,
    defaultValues: { request_type: "channel", title: "", details: "" },
    fields: ["request_type", "title", "details"],
    keep: "request_type",
    send: async (values) => {
      await create.mutateAsync(values);
      return "Thanks! We'll let you know here what we can do.";
    },
  });

  return (
    <Card id="content-requests" className="scroll-mt-24 p-5 sm:p-6" aria-labelledby="requests-heading">
      <h2 id="requests-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <Clapperboard aria-hidden="true" className="size-5 text-accent-ink" />
        Request a channel, film or series
      </h2>
      <p className="mt-1 text-sm text-ink-muted">Missing something you love? Tell us and follow its progress here.</p>
      <form onSubmit={onSubmit} noValidate className="mt-4 flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
          <Field id="request-type" label="Type" error={errors.request_type?.message}>
            <Select {...register("request_type")}>
              {CONTENT_REQUEST_TYPES.map((type) => (
                <option key={type} value={type}>
                  {TYPE_LABELS[type]}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="request-title" label="Title" error={errors.title?.message}>
            <Input placeholder="e.g. SuperSport Rugby" {...register("title")} />
          </Field>
        </div>
        <Field id="request-details" label="Details (optional)" error={errors.details?.message}>
          <Textarea rows={2} placeholder="Season, language, anything that helps us find it" {...register("details")} />
        </Field>
        <Button type="submit" disabled={isSubmitting} className="self-start">
          {isSubmitting ? "Sending..." : "Send request"}
        </Button>
      </form>

      <RequestHistory title="Your requests" requests={requests}>
        {(r) => {
          const status = STATUS[r.status] ?? { label: r.status, variant: "neutral" as const };
          return (
            <li key={r.id} className="rounded-xl border border-line bg-surface-raised p-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <p className="min-w-0 font-semibold break-words text-ink">
                  <span className="text-ink-muted">{TYPE_LABELS[r.request_type as keyof typeof TYPE_LABELS] ?? r.request_type}:</span>{" "}
                  {r.title}
                </p>
                <Badge variant={status.variant}>{status.label}</Badge>
              </div>
              {r.details ? <p className="mt-1 text-sm text-ink-muted">{r.details}</p> : null}
              {r.reply ? (
                <p className="mt-2 rounded-lg bg-surface-overlay px-3 py-2 text-sm text-ink">
                  <span className="font-semibold">Our reply:</span> {r.reply}
                </p>
              ) : null}
              <p className="mt-1 text-xs text-ink-subtle">Asked {formatDate(r.created_at)}</p>
            </li>
          );
        }}
      </RequestHistory>
    </Card>
  );
}
