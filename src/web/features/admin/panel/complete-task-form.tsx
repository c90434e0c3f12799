// A step the owner did on the panel by hand: for a new line, paste its username and password (and
// the panel's line id, if it shows one) and the client gets their login at once; any other step
// is just marked done.
import { zodResolver } from "@hookform/resolvers/zod";
import { CheckCheck } from "lucide-react";
import { type Resolver, useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { PANEL_PASSWORD_MESSAGE, PANEL_USERNAME_MESSAGE, type ProvisioningJob, panelTaskCompleteSchema } from "@/shared/business-schemas";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Field, FormError, setServerErrors } from "../components/form-field";
import { useCompleteProvisioningJob } from "./api/complete-provisioning-job";
import { actionLabel } from "./panel-labels";

/** The server's words for a missing login, shared with it. */
export const PASTE_USERNAME_MESSAGE = PANEL_USERNAME_MESSAGE;
export const PASTE_PASSWORD_MESSAGE = PANEL_PASSWORD_MESSAGE;

// The shared request schema, with the login required: this form is only shown when it is.
const pastedLoginSchema = panelTaskCompleteSchema.extend({
  username: z.string().trim().min(1, PASTE_USERNAME_MESSAGE).max(200, "At most 200 characters"),
  password: z.string().trim().min(1, PASTE_PASSWORD_MESSAGE).max(200, "At most 200 characters"),
  line_id: z.string().trim().max(100, "At most 100 characters"),
});
type PastedLoginValues = z.infer<typeof pastedLoginSchema>;

export function PasteLoginForm({ job, submitLabel = "Save the login" }: { job: ProvisioningJob; submitLabel?: string }) {
  const complete = useCompleteProvisioningJob();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PastedLoginValues>({
    resolver: zodResolver(pastedLoginSchema) as Resolver<PastedLoginValues>,
    defaultValues: { username: "", password: "", line_id: "" },
  });

  const onSubmit = handleSubmit(async ({ username, password, line_id }) => {
    try {
      await complete.mutateAsync({ id: job.id, login: { username, password, ...(line_id ? { line_id } : {}) } });
      toast.success("Line saved", { description: `${job.client_full_name} is being sent their login now.` });
    } catch (error) {
      if (!setServerErrors(error, setError, ["username", "password", "line_id"]))
        toast.error("Not saved", { description: error instanceof Error ? error.message : "Please try again." });
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
      </div>
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
