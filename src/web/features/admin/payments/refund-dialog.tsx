// 'Refund': money going back on a paid payment. Issues a credit note against its invoice; the
// card provider refunds it where it has a refund API (else it is recorded as paid back by hand),
// and the owner says what happens to the subscription: a whole refund takes back the time it
// bought unless they choose otherwise.
import { zodResolver } from "@hookform/resolvers/zod";
import type { Resolver } from "react-hook-form";
import { type RefundRequest, refundRequestSchema } from "@/shared/billing";
import type { AdminPayment } from "@/shared/business-schemas";
import { formatRand, fromCents, toCents } from "@/shared/money";
import { DialogDescription, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { findProvider, usePaymentProviders } from "@/web/lib/queries/payment-providers";
import { toast } from "@/web/lib/toast";
import { DialogActions } from "../components/dialog-actions";
import { Field, FormError } from "../components/form-field";
import { BusyLockedDialog } from "../components/form-only-dialog";
import { useServerForm } from "../components/use-server-form";
import { useRefundPayment } from "./api/refund-payment";
import { confirmedRefund, providerName } from "./payment-labels";

interface RefundValues {
  amount: string;
  reason: string;
  term: "remove" | "end" | "shorten" | "keep";
  days: string;
  by_hand: boolean;
}
const FIELDS = ["amount", "reason", "term", "days", "by_hand"] as const;
/** Payments a provider took, which its refund API (or its merchant portal) pays back. */
const PAID_BY_HAND_ALONE = new Set(["eft", "manual"]);
const checkRefund = zodResolver(refundRequestSchema) as unknown as Resolver<RefundValues, unknown, RefundRequest>;

export const TERM_CHOICES: Record<RefundValues["term"], string> = {
  remove: "Take back the time this payment bought",
  end: "End the subscription now",
  shorten: "Shorten it by a number of days",
  keep: "Leave the subscription as it is",
};

/** What is left to refund on a payment, in rand. */
export const refundableOf = (payment: Pick<AdminPayment, "amount" | "refunded_amount">) =>
  fromCents(toCents(payment.amount) - toCents(payment.refunded_amount ?? 0));

export function RefundDialog({ payment, onClose }: { payment: AdminPayment; onClose: () => void }) {
  const refund = useRefundPayment();
  const providers = usePaymentProviders();
  const takenBy = findProvider(providers, payment.provider);
  const left = refundableOf(payment);
  const { register, watch, errors, onSubmit } = useServerForm({
    resolver: checkRefund,
    defaultValues: {
      amount: String(left),
      reason: "",
      term: (payment.refunded_amount ?? 0) > 0 ? "keep" : "remove",
      days: "",
      by_hand: false,
    },
    send: async (values) => {
      const done = await refund.mutateAsync({ id: payment.id, refund: values });
      toast.success(`Credit note ${done.credit_note} issued`, {
        description: `${formatRand(done.amount)} ${done.method === "provider" ? `refunded through ${providerName(providers, payment.provider)}` : "recorded as paid back by hand"}.`,
      });
      onClose();
    },
    failure: { fields: FIELDS, fallback: "The refund was not made. Please try again." },
  });
  const term = watch("term");
  const viaProvider = !PAID_BY_HAND_ALONE.has(payment.provider);
  const whole = toCents(Number(watch("amount")) || 0) === toCents(payment.amount);

  return (
    <BusyLockedDialog busy={refund.isPending} onClose={onClose} className="max-w-lg">
      <form onSubmit={onSubmit} noValidate>
        <DialogHeader>
          <DialogTitle>Refund</DialogTitle>
          <DialogDescription>
            {formatRand(payment.amount)} from {payment.client_full_name || payment.client_email || "an unknown payer"} ·{" "}
            <span className="font-mono">{payment.external_transaction_id}</span>
            {confirmedRefund(payment) > 0 ? ` · ${formatRand(confirmedRefund(payment))} refunded already` : ""}
            {(payment.refund_held ?? 0) > 0 ? ` · ${formatRand(payment.refund_held ?? 0)} held: an earlier refund not yet confirmed` : ""}.
            A credit note is issued against its invoice{takenBy?.test ? " and the test card provider refunds it" : ""}.
          </DialogDescription>
        </DialogHeader>
        <div className="flex flex-col gap-4">
          <FormError message={errors.root?.server?.message} />
          <Field label="Amount (R)" error={errors.amount?.message} required hint={`Up to ${formatRand(left)}.`}>
            {(control) => <Input {...control} {...register("amount")} inputMode="decimal" className="tabular" />}
          </Field>
          <Field label="Reason" error={errors.reason?.message} required hint="Printed on the credit note.">
            {(control) => <Textarea {...control} {...register("reason")} rows={2} placeholder="e.g. Paid twice by mistake" />}
          </Field>
          {payment.client_id ? (
            <Field
              label="The subscription"
              error={errors.term?.message}
              hint={whole ? "A whole refund usually takes back the time it bought." : undefined}
            >
              {(control) => (
                <Select {...control} {...register("term")}>
                  {Object.entries(TERM_CHOICES).map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          ) : null}
          {viaProvider ? (
            <div className="flex flex-col gap-1">
              <label className="flex min-h-11 items-center gap-3 text-sm text-ink">
                <input type="checkbox" {...register("by_hand")} className="size-5 accent-[var(--color-accent)]" />I paid it back myself (in{" "}
                {providerName(providers, payment.provider)}'s portal or by bank transfer)
              </label>
              <p className="text-xs text-ink-muted">
                Recorded as paid back by hand: {providerName(providers, payment.provider)} is not asked to refund it.
              </p>
            </div>
          ) : null}
          {term === "shorten" ? (
            <Field label="Days to take off" error={errors.days?.message} required>
              {(control) => <Input {...control} {...register("days")} inputMode="numeric" className="tabular" />}
            </Field>
          ) : null}
        </div>
        <DialogActions onCancel={onClose} busy={refund.isPending} submit="Refund and issue credit note" busyLabel="Refunding..." />
      </form>
    </BusyLockedDialog>
  );
}
