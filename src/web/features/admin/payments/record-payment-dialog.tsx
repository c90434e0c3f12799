// 'Record payment': money taken by hand (cash, a transfer seen in the banking app). It is paid at
// once, adds the package's time to the client and queues their receipt.
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { type Resolver, useForm } from "react-hook-form";
import { type AdminClient, type PaymentCreate, paymentCreateSchema } from "@/shared/business-schemas";
import { formatRand } from "@/shared/money";
import { DialogDescription, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { toast } from "@/web/lib/toast";
import { useAdminPackages } from "../api/get-admin-packages";
import { PackageOptions } from "../components/choices";
import { ClientPicker } from "../components/client-picker";
import { DialogActions } from "../components/dialog-actions";
import { Field, FormError, toastServerErrors } from "../components/form-field";
import { FormOnlyDialog } from "../components/form-only-dialog";
import { priceToday } from "../components/format";
import { useRecordPayment } from "./api/record-payment";

export function RecordPaymentDialog({
  open,
  onOpenChange,
  client: fixedClient,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** on a client's page: the payment is theirs */
  client?: AdminClient;
}) {
  return (
    <FormOnlyDialog
      open={open}
      onOpenChange={onOpenChange}
      className="max-w-xl"
      form={(onDone) => <RecordPaymentForm fixedClient={fixedClient} onDone={onDone} />}
    />
  );
}

interface PaymentValues {
  client_id: string;
  package_id: string;
  /** what the admin typed; blank: the package's price today */
  amount: string;
  note: string;
}
const FIELDS = ["client_id", "package_id", "amount", "note"] as const;
// The form holds what is typed; the schema turns it into the payment to record.
const checkPayment = zodResolver(paymentCreateSchema) as unknown as Resolver<PaymentValues, unknown, PaymentCreate>;

function RecordPaymentForm({ fixedClient, onDone }: { fixedClient?: AdminClient; onDone: () => void }) {
  const packages = useAdminPackages();
  const record = useRecordPayment();
  const [client, setClient] = useState<AdminClient | null>(fixedClient ?? null);
  // What the client would pay for the package today (a running special included) until the
  // admin types an amount of their own.
  const amountFor = (values: PaymentValues) => {
    const chosen = packages.data?.find((p) => p.id === values.package_id);
    return values.amount || (chosen ? String(priceToday(chosen)) : "");
  };
  const resolver: Resolver<PaymentValues, unknown, PaymentCreate> = (values, context, options) =>
    checkPayment({ ...values, amount: amountFor(values) }, context, options);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    getValues,
    watch,
    formState: { errors },
  } = useForm<PaymentValues, unknown, PaymentCreate>({
    resolver,
    defaultValues: { client_id: fixedClient?.id ?? "", package_id: fixedClient?.package_id ?? "", amount: "", note: "" },
  });
  const shownAmount = amountFor(watch());

  const submit = handleSubmit(async (payment) => {
    try {
      const saved = await record.mutateAsync(payment);
      toast.success("Payment recorded", {
        description: `${formatRand(saved.amount)} from ${client?.full_name ?? "the client"} is paid.`,
      });
      onDone();
    } catch (error) {
      toastServerErrors(error, setError, FIELDS, "Payment not recorded");
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>Record payment</DialogTitle>
        <DialogDescription>For money taken by hand. It's marked paid now, adds the package's time and sends a receipt.</DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-4">
        <FormError message={errors.root?.server?.message} />
        {client?.status === "suspended" ? (
          <p role="note" className="rounded-xl border border-warn/40 bg-warn/10 px-4 py-3 text-sm text-ink">
            {client.full_name} is suspended. The payment adds their time, but they stay suspended until you reactivate them.
          </p>
        ) : null}
        {fixedClient ? (
          <p className="text-sm text-ink-muted">
            Client: <span className="font-medium text-ink">{fixedClient.full_name}</span> ({fixedClient.username})
          </p>
        ) : (
          <ClientPicker
            label="Client"
            value={client}
            onChange={(picked) => {
              setClient(picked);
              setValue("client_id", picked?.id ?? "", { shouldDirty: true });
              // their own package is the likely one
              if (picked?.package_id && !getValues("package_id")) setValue("package_id", picked.package_id, { shouldDirty: true });
            }}
            error={errors.client_id?.message}
          />
        )}
        <Field label="Package" error={errors.package_id?.message} required>
          {(control) => (
            <Select {...control} {...register("package_id")} disabled={packages.isPending}>
              <option value="">{packages.isPending ? "Loading packages..." : "Choose a package"}</option>
              <PackageOptions packages={packages.data} />
            </Select>
          )}
        </Field>
        <Field
          label="Amount (R)"
          error={errors.amount?.message}
          required
          hint="What they'd pay for it today (a running special included), unless you type what was paid."
        >
          {(control) => (
            <Input
              {...control}
              value={shownAmount}
              onChange={(e) => setValue("amount", e.target.value, { shouldDirty: true })}
              inputMode="decimal"
              className="tabular"
            />
          )}
        </Field>
        <Field label="Note" error={errors.note?.message}>
          {(control) => <Textarea {...control} {...register("note")} rows={2} placeholder="e.g. Cash at the shop" />}
        </Field>
      </div>
      <DialogActions onCancel={onDone} busy={record.isPending} submit="Record payment" busyLabel="Recording..." />
    </form>
  );
}
