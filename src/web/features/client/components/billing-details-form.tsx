// 'Invoice details' on the account page: an optional company name, address and VAT number that
// the client's next invoices carry (a VAT number is 10 digits starting with 4).
import { zodResolver } from "@hookform/resolvers/zod";
import { Building2 } from "lucide-react";
import { type Resolver, useForm } from "react-hook-form";
import { type BuyerDetails, buyerDetailsSchema } from "@/shared/billing";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Textarea } from "@/web/components/ui/textarea";
import { toast } from "@/web/lib/toast";
import { type BillingDetails, useBillingDetails, useSaveBillingDetails } from "../api/billing";
import { Field } from "./field";
import { applyFieldErrors, errorMessage } from "./server-errors";

export function BillingDetailsCard() {
  const details = useBillingDetails();
  if (!details.data) return null;
  return <BillingDetailsForm key={JSON.stringify(details.data)} saved={details.data} />;
}

const checkDetails = zodResolver(buyerDetailsSchema) as unknown as Resolver<BillingDetails, unknown, BuyerDetails>;

function BillingDetailsForm({ saved }: { saved: BillingDetails }) {
  const save = useSaveBillingDetails();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<BillingDetails, unknown, BuyerDetails>({ resolver: checkDetails, defaultValues: saved });
  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync(values);
      toast.success("Invoice details saved", { description: "Your next invoices carry them." });
    } catch (error) {
      if (!applyFieldErrors(error, setError, ["company", "address", "vatNumber"]))
        toast.error("Save Failed", { description: errorMessage(error) });
    }
  });
  return (
    <Card className="p-5 sm:p-6" aria-labelledby="billing-heading">
      <h2 id="billing-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <Building2 aria-hidden="true" className="size-5 text-accent-ink" />
        Invoice details
      </h2>
      <p className="mt-1 text-sm text-ink-muted">Optional: for a company invoice. Leave empty to be invoiced in your own name.</p>
      <form onSubmit={onSubmit} noValidate className="mt-5 flex flex-col gap-4">
        <Field id="billing-company" label="Company name" error={errors.company?.message}>
          <Input autoComplete="organization" {...register("company")} />
        </Field>
        <Field id="billing-address" label="Address" error={errors.address?.message}>
          <Textarea rows={2} autoComplete="street-address" {...register("address")} />
        </Field>
        <Field
          id="billing-vat"
          label="VAT number"
          error={errors.vatNumber?.message}
          hint="If your company is registered for VAT: 10 digits starting with 4."
        >
          <Input inputMode="numeric" autoComplete="off" {...register("vatNumber")} />
        </Field>
        <Button type="submit" disabled={isSubmitting || !isDirty} className="self-start">
          {isSubmitting ? "Saving..." : "Save invoice details"}
        </Button>
      </form>
    </Card>
  );
}
