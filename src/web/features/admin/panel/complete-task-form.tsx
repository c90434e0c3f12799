// A step the owner did on the panel by hand: for a new line, paste its username and password (and
// the panel's line id and the end date it shows, if wanted) and the client gets their login at
// once, its links built on the stream server shown here (asked for first when none is set); any
// other step is just marked done.
import { zodResolver } from "@hookform/resolvers/zod";
import { CheckCheck } from "lucide-react";
import { useMemo } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { z } from "zod";
import {
  PANEL_PASSWORD_MESSAGE,
  PANEL_STREAM_URL_NEEDED,
  PANEL_USERNAME_MESSAGE,
  type ProvisioningJob,
  panelTaskCompleteSchema,
} from "@/shared/business-schemas";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { toast } from "@/web/lib/toast";
import { Field, FormError, toastServerErrors } from "../components/form-field";
import { useCompleteProvisioningJob } from "./api/complete-provisioning-job";
import { usePanel } from "./api/get-panel";
import { actionLabel } from "./panel-labels";
import { STREAM_URL_EXAMPLE, STREAM_URL_INPUT_PROPS } from "./stream-url-input";

/** The server's words for a missing login, shared with it. */
export const PASTE_USERNAME_MESSAGE = PANEL_USERNAME_MESSAGE;
export const PASTE_PASSWORD_MESSAGE = PANEL_PASSWORD_MESSAGE;

// The shared request schema, with the login required: this form is only shown when it is; the
// stream server too while none is set (a login without one is of no use to the customer).
const pastedLoginSchema = (needsStreamUrl: boolean) =>
  panelTaskCompleteSchema
    .extend({
      username: z.string().trim().min(1, PASTE_USERNAME_MESSAGE).max(200, "At most 200 characters"),
      password: z.string().trim().min(1, PASTE_PASSWORD_MESSAGE).max(200, "At most 200 characters"),
      line_id: z.string().trim().max(100, "At most 100 characters"),
    })
    .superRefine((values, ctx) => {
      if (needsStreamUrl && !values.stream_url) ctx.addIssue({ code: "custom", path: ["stream_url"], message: PANEL_STREAM_URL_NEEDED });
    });
type PastedLoginValues = { username: string; password: string; line_id: string; expires_on: string; stream_url: string };
type PastedLogin = z.output<ReturnType<typeof pastedLoginSchema>>;
const FIELDS = ["username", "password", "line_id", "expires_on", "stream_url"] as const;

export function PasteLoginForm({ job, submitLabel = "Save the login" }: { job: ProvisioningJob; submitLabel?: string }) {
  const complete = useCompleteProvisioningJob();
  const panel = usePanel();
  const streamUrl = panel.data?.stream_url ?? "";
  // the field shows once the panel's view says none is set (not while it loads)
  const needsStreamUrl = Boolean(panel.data) && !streamUrl;
  const resolver = useMemo(() => zodResolver(pastedLoginSchema(needsStreamUrl)), [needsStreamUrl]);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PastedLoginValues, unknown, PastedLogin>({
    resolver: resolver as unknown as Resolver<PastedLoginValues, unknown, PastedLogin>,
    defaultValues: { username: "", password: "", line_id: "", expires_on: "", stream_url: "" },
  });

  const onSubmit = handleSubmit(async ({ username, password, line_id, expires_on, stream_url }) => {
    try {
      await complete.mutateAsync({
        id: job.id,
        login: {
          username,
          password,
          ...(line_id ? { line_id } : {}),
          ...(expires_on ? { expires_on } : {}),
          ...(stream_url ? { stream_url } : {}),
        },
      });
      toast.success("Line saved", { description: `${job.client_full_name} is being sent their login now.` });
    } catch (error) {
      toastServerErrors(error, setError, FIELDS, "Not saved");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label={`Paste the login for ${job.client_full_name}`}>
      <FormError message={errors.root?.server?.message} />
      <div className="grid gap-3 sm:grid-cols-3">
        <Field label="Line username" required error={errors.username?.message}>
          {(c) => <Input {...c} {...register("username")} autoComplete="off" spellCheck={false} className="font-mono" />}
        </Field>
        <Field label="Line password" required error={errors.password?.message}>
          {(c) => <Input {...c} {...register("password")} autoComplete="off" spellCheck={false} className="font-mono" />}
        </Field>
        <Field label="Panel line id" error={errors.line_id?.message} hint="Optional: the line's number on the panel">
          {(c) => <Input {...c} {...register("line_id")} autoComplete="off" spellCheck={false} className="font-mono" />}
        </Field>
        <Field
          label="Line ends on"
          error={errors.expires_on?.message}
          hint="Optional: the end date your panel shows, else the paid term's end"
        >
          {(c) => <Input {...c} {...register("expires_on")} type="date" autoComplete="off" />}
        </Field>
        {needsStreamUrl ? (
          <Field
            label="Stream server URL"
            required
            error={errors.stream_url?.message}
            hint="http(s)://host:port, as your panel shows customers. Saved for every line after this one."
            className="sm:col-span-2"
          >
            {(c) => <Input {...c} {...register("stream_url")} {...STREAM_URL_INPUT_PROPS} placeholder={STREAM_URL_EXAMPLE} />}
          </Field>
        ) : null}
      </div>
      {streamUrl ? (
        <p className="text-xs text-ink-muted" data-testid="task-stream-url">
          Their apps connect to <span className="font-mono break-all text-ink">{streamUrl}</span>: the M3U and EPG links in their message
          and portal are built on it (change it under Stream server below).
        </p>
      ) : null}
      <div>
        <Button type="submit" size="sm" disabled={isSubmitting}>
          <CheckCheck aria-hidden="true" />
          {isSubmitting ? "Saving..." : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** A step with nothing to paste (extend, switch on or off): done once the owner says so. */
export function MarkDoneButton({ job }: { job: ProvisioningJob }) {
  const complete = useCompleteProvisioningJob();
  return (
    <Button
      size="sm"
      disabled={complete.isPending}
      onClick={() =>
        complete.mutate(
          { id: job.id, login: {} },
          {
            onSuccess: () => toast.success("Marked done", { description: `${actionLabel(job)} for ${job.client_full_name}: done.` }),
            onError: (error) => toast.error("Not marked done", { description: error.message }),
          },
        )
      }
    >
      <CheckCheck aria-hidden="true" />
      {complete.isPending ? "Saving..." : "Mark done"}
    </Button>
  );
}
