import { useState } from "react";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import type { CouponQuote } from "@/shared/billing";
import { formatRand } from "@/shared/money";
import { FormField, type fieldAria } from "@/web/components/form-field";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import type { PayerField } from "./pay-now";
import { fieldId, type PayerValues } from "./pay-review-model";

/**
 * A coupon code, and the company details a tax invoice needs: folded away, since most people
 * need neither. The coupon is checked (and priced) by the server when Apply is pressed, and again
 * when the payment is made.
 */
export function ExtrasSection({
  register,
  aria,
  errors,
  quote,
  onApply,
}: {
  register: UseFormRegister<PayerValues>;
  aria: (name: PayerField, hint?: boolean) => ReturnType<typeof fieldAria>;
  errors: FieldErrors<PayerValues>;
  quote: CouponQuote | null;
  onApply: () => Promise<void>;
}) {
  const [applying, setApplying] = useState(false);
  const open = Boolean(errors.coupon || errors.company || errors.address || errors.vatNumber) || undefined;
  return (
    <details className="group rounded-xl border border-line bg-surface-raised px-4 py-3" open={open}>
      <summary className="cursor-pointer text-sm font-semibold text-ink marker:text-ink-subtle">
        Coupon code or company invoice (optional)
      </summary>
      <div className="mt-4 flex flex-col gap-4">
        <FormField
          id={fieldId("coupon")}
          label="Coupon code"
          error={errors.coupon?.message}
          hint={quote ? `${quote.code}: ${formatRand(quote.discount)} off. You pay ${formatRand(quote.price)}.` : undefined}
        >
          <div className="flex gap-2">
            <Input
              id={fieldId("coupon")}
              autoComplete="off"
              autoCapitalize="characters"
              className="font-mono uppercase"
              {...aria("coupon", Boolean(quote))}
              {...register("coupon")}
            />
            <Button
              variant="outline"
              disabled={applying}
              onClick={async () => {
                setApplying(true);
                try {
                  await onApply();
                } finally {
                  setApplying(false);
                }
              }}
            >
              {applying ? "Checking..." : "Apply"}
            </Button>
          </div>
        </FormField>
        <FormField id={fieldId("company")} label="Company name" error={errors.company?.message}>
          <Input id={fieldId("company")} autoComplete="organization" {...aria("company")} {...register("company")} />
        </FormField>
        <FormField id={fieldId("address")} label="Company address" error={errors.address?.message}>
          <Input id={fieldId("address")} autoComplete="street-address" {...aria("address")} {...register("address")} />
        </FormField>
        <FormField
          id={fieldId("vatNumber")}
          label="Company VAT number"
          error={errors.vatNumber?.message}
          hint="10 digits starting with 4, printed on your tax invoice."
        >
          <Input id={fieldId("vatNumber")} inputMode="numeric" autoComplete="off" {...aria("vatNumber", true)} {...register("vatNumber")} />
        </FormField>
      </div>
    </details>
  );
}
