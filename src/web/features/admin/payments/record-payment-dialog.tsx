// 'Record payment': money taken by hand (cash, a transfer seen in the banking app). It is paid at
// once, adds the package's time to the client and queues their receipt.
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { type AdminClient, paymentCreateSchema } from "@/shared/business-schemas";
import { formatRand } from "@/shared/money";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { useAdminPackages } from "../api/get-admin-packages";
import { ClientPicker } from "../components/client-picker";
import { apiFieldErrors, Field, type FieldErrors, FormError, parseForm } from "../components/form-field";
import { packageChoice, priceToday } from "../components/format";
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
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-xl" onInteractOutside={(event) => event.preventDefault()}>
        {open ? <RecordPaymentForm fixedClient={fixedClient} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function RecordPaymentForm({ fixedClient, onDone }: { fixedClient?: AdminClient; onDone: () => void }) {
  const packages = useAdminPackages();
  const record = useRecordPayment();
  const [client, setClient] = useState<AdminClient | null>(fixedClient ?? null);
  const [packageId, setPackageId] = useState(fixedClient?.package_id ?? "");
  const [amount, setAmount] = useState("");
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const chosen = packages.data?.find((p) => p.id === packageId);
  // What the client would pay for the package today (a running special included) until the
  // admin types an amount of their own.
  const shownAmount = amount || (chosen ? String(priceToday(chosen)) : "");

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseForm(paymentCreateSchema, { client_id: client?.id ?? "", package_id: packageId, amount: shownAmount, note });
    if ("errors" in parsed) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    try {
      const payment = await record.mutateAsync(parsed.data);
      toast.success("Payment recorded", {
        description: `${formatRand(payment.amount)} from ${client?.full_name ?? "the client"} is paid.`,
      });
      onDone();
    } catch (error) {
      const fields = apiFieldErrors(error);
      if (fields) setErrors(fields);
      else toast.error("Payment not recorded", { description: error instanceof Error ? error.message : "Please try again." });
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>Record payment</DialogTitle>
        <DialogDescription>For money taken by hand. It's marked paid now, adds the package's time and sends a receipt.</DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-4">
        <FormError errors={errors} />
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
              // their own package is the likely one
              if (picked?.package_id && !packageId) setPackageId(picked.package_id);
            }}
            error={errors.client_id}
          />
        )}
        <Field label="Package" error={errors.package_id} required>
          {(control) => (
            <Select {...control} value={packageId} onChange={(e) => setPackageId(e.target.value)} disabled={packages.isPending}>
              <option value="">{packages.isPending ? "Loading packages..." : "Choose a package"}</option>
              {packages.data?.map((p) => (
                <option key={p.id} value={p.id}>
                  {packageChoice(p)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field
          label="Amount (R)"
          error={errors.amount}
          required
          hint="What they'd pay for it today (a running special included), unless you type what was paid."
        >
          {(control) => (
            <Input {...control} value={shownAmount} onChange={(e) => setAmount(e.target.value)} inputMode="decimal" className="tabular" />
          )}
        </Field>
        <Field label="Note" error={errors.note}>
          {(control) => (
            <Textarea {...control} value={note} onChange={(e) => setNote(e.target.value)} rows={2} placeholder="e.g. Cash at the shop" />
          )}
        </Field>
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={record.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={record.isPending}>
          {record.isPending ? "Recording..." : "Record payment"}
        </Button>
      </DialogFooter>
    </form>
  );
}
