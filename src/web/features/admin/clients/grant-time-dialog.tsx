// 'Grant complimentary time': months and days without payment, always with a reason (it is
// recorded in the client's history with the admin's name). The dialog shows where the term
// would end, by the same rule the server applies (src/shared/lifecycle.ts).
import { zodResolver } from "@hookform/resolvers/zod";
import { type Resolver, useWatch } from "react-hook-form";
import { type AdminClient, type ClientGrant, clientGrantSchema } from "@/shared/business-schemas";
import { formatDate } from "@/shared/dates";
import { applyCause, isClientStatus, type LifecycleRules } from "@/shared/lifecycle";
import { DialogDescription, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Textarea } from "@/web/components/ui/textarea";
import { toast } from "@/web/lib/toast";
import { useLifecycleRules } from "../api/get-lifecycle-rules";
import { DialogActions } from "../components/dialog-actions";
import { Field, FormError } from "../components/form-field";
import { FormOnlyDialog } from "../components/form-only-dialog";
import { useServerForm } from "../components/use-server-form";
import { useGrantTime } from "./api/grant-time";
import type { ClientDialogProps } from "./client-dialog";

interface GrantFormValues {
  months: string;
  days: string;
  reason: string;
}

const whole = (text: string) => (/^\s*\d+\s*$/.test(text) ? Number(text) : 0);

/** Where the term would end after the grant, or null when the grant is not one yet. */
export function grantedEnd(client: AdminClient, months: number, days: number, rules: LifecycleRules, now = new Date()): Date | null {
  const status = isClientStatus(client.status) ? client.status : "pending";
  const term = {
    status,
    start: client.subscription_start ? new Date(client.subscription_start) : null,
    end: client.subscription_end ? new Date(client.subscription_end) : null,
    // not sent to the dashboard; what it was matters only for where added time starts
    suspendedFrom: status === "suspended" ? ("active" as const) : null,
  };
  const outcome = applyCause(term, { kind: "complimentary-grant", months, days }, now, rules);
  return outcome.ok ? outcome.term.end : null;
}

export function GrantTimeDialog({ client, open, onOpenChange }: ClientDialogProps) {
  return <FormOnlyDialog open={open} onOpenChange={onOpenChange} form={(onDone) => <GrantForm client={client} onDone={onDone} />} />;
}

function GrantForm({ client, onDone }: { client: AdminClient; onDone: () => void }) {
  const grant = useGrantTime();
  const rules = useLifecycleRules();
  const { register, control, errors, isSubmitting, onSubmit } = useServerForm({
    resolver: zodResolver(clientGrantSchema) as Resolver<GrantFormValues, unknown, ClientGrant>,
    defaultValues: { months: "", days: "", reason: "" },
    send: async (input) => {
      const updated = await grant.mutateAsync({ id: client.id, grant: input });
      toast.success("Complimentary time granted", {
        description: `${client.full_name} now runs to ${formatDate(updated.subscription_end)}.`,
      });
      onDone();
    },
    failure: { fields: ["months", "days", "reason"], toast: "Not granted" },
  });
  const [months, days] = useWatch({ control, name: ["months", "days"] });
  const end = grantedEnd(client, whole(months), whole(days), rules);

  return (
    <form onSubmit={onSubmit} noValidate>
      <DialogHeader>
        <DialogTitle>Grant complimentary time</DialogTitle>
        <DialogDescription>
          Free time for {client.full_name}, without a payment: added to their current end while their term runs (or is in grace), otherwise
          counted from now. It is recorded in their history with your reason.
        </DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-4">
        <FormError message={errors.root?.server?.message} />
        <div className="grid grid-cols-2 gap-4">
          <Field label="Months" error={errors.months?.message}>
            {(c) => <Input {...c} {...register("months")} inputMode="numeric" placeholder="0" className="tabular" />}
          </Field>
          <Field label="Days" error={errors.days?.message}>
            {(c) => <Input {...c} {...register("days")} inputMode="numeric" placeholder="0" className="tabular" />}
          </Field>
        </div>
        <Field label="Reason" required error={errors.reason?.message} hint="e.g. Two days of the service being down in March">
          {(c) => <Textarea {...c} {...register("reason")} rows={3} />}
        </Field>
        <p className="rounded-xl border border-line bg-surface-raised px-4 py-3 text-sm text-ink-muted" aria-live="polite">
          {end ? (
            <>
              Their term will run to <span className="font-semibold text-ink">{formatDate(end)}</span>.
            </>
          ) : (
            "Enter at least one day or one month."
          )}
          {client.status === "suspended" ? " They stay suspended: time granted does not lift a suspension." : null}
        </p>
      </div>
      <DialogActions onCancel={onDone} busy={isSubmitting} submit="Grant time" busyLabel="Granting..." />
    </form>
  );
}
