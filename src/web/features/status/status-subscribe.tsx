// "Get status updates by e-mail" on the status page: one field, react-hook-form over the shared
// schema, the server's field error mapped onto it, a POPIA notice, and the same answer for
// everyone (a confirmation link is mailed: double opt-in).
import { zodResolver } from "@hookform/resolvers/zod";
import { BellRing } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { type StatusSubscribe as StatusSubscribeValues, statusSubscribeSchema } from "@/shared/schemas";
import { FormField, fieldAria } from "@/web/components/form-field";
import { PopiaNotice } from "@/web/components/popia-notice";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { ApiError, apiSend } from "@/web/lib/api";

export function StatusSubscribe() {
  const [sent, setSent] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<StatusSubscribeValues>({ resolver: zodResolver(statusSubscribeSchema), defaultValues: { email: "" } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await apiSend<{ message: string }>("POST", "/status/subscribe", values);
      setSent(answer.message);
    } catch (error) {
      const message = error instanceof ApiError ? (error.fields.email ?? error.message) : "Please try again.";
      setError("email", { type: "server", message });
    }
  });

  return (
    <section
      aria-labelledby="status-subscribe-heading"
      className="flex flex-col gap-4 rounded-card border border-line bg-surface p-5 sm:p-6"
    >
      <h2 id="status-subscribe-heading" className="flex items-center gap-2 text-xl font-semibold text-ink">
        <BellRing aria-hidden="true" className="size-5 text-accent-ink" />
        Get status updates by e-mail
      </h2>
      {sent ? (
        <p role="status" className="rounded-xl bg-ok/10 px-4 py-3 text-sm text-ink">
          {sent}
        </p>
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <p className="text-sm text-ink-muted">
            We'll e-mail you when something breaks, while it's being fixed, when it's fixed, and before planned maintenance.
          </p>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <FormField id="status-subscribe-email" label="Email" required error={errors.email?.message} className="flex-1">
              <Input
                id="status-subscribe-email"
                type="email"
                autoComplete="email"
                aria-required
                {...fieldAria("status-subscribe-email", { error: errors.email?.message })}
                {...register("email")}
              />
            </FormField>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? "Sending..." : "Subscribe"}
            </Button>
          </div>
          <PopiaNotice
            collected="your e-mail address"
            purpose="send you our service status updates, after you confirm by the link we e-mail you; every update has a link to stop them"
            required="The e-mail address is needed to send them."
          />
        </form>
      )}
    </section>
  );
}
