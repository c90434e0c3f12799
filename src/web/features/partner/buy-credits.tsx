// The partner buys credits from the shop (issue 45 item 4): how many, the price at the owner's
// tiers as they type, and how to pay — EFT (the bank details and the order's reference, credited
// once the owner sees the money) or a card / hosted provider (off to its checkout). Their orders
// below; one whose credits arrive refreshes the balance and the ledger.
import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { ShoppingCart } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { formatDateTime } from "@/shared/dates";
import { formatRand } from "@/shared/money";
import { type BuyCreditsForm, buyCreditsFormSchema, type CreditCheckoutAnswer, priceCredits } from "@/shared/reseller-schemas";
import { FormField } from "@/web/components/form-field";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { useBuyCredits, useCreditOffer, useCreditOrders } from "./api/partner-credits";
import { partnerKeys } from "./api/partner-keys";

const card = "flex flex-col gap-4 rounded-card border border-line bg-surface p-5 sm:p-6";

const STATUS_TEXT: Record<string, string> = {
  pending: "Waiting for payment",
  paid: "Paid: adding your credits",
  delivered: "Credits added",
  refused: "Paid: the business is adding your credits",
  failed: "Paid: adding your credits",
  unknown: "Paid: the business is checking your credits",
  refunded: "Refunded",
};

export function BuyCredits() {
  const offer = useCreditOffer();
  const buy = useBuyCredits();
  const [failure, setFailure] = useState("");
  const [eft, setEft] = useState<CreditCheckoutAnswer | null>(null);
  const {
    register,
    handleSubmit,
    watch,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<BuyCreditsForm>({ resolver: zodResolver(buyCreditsFormSchema), defaultValues: { credits: "", method: "eft" } });
  const pricing = offer.data?.pricing ?? null;
  const methods = offer.data?.methods ?? [];
  const typed = Number(watch("credits"));
  const method = watch("method");
  // The first way to pay on offer is chosen until they pick one (EFT is off until the bank details are set).
  useEffect(() => {
    if (methods.length && !methods.some((m) => m.id === method)) setValue("method", methods[0].id);
  }, [methods, method, setValue]);
  const quote = pricing && Number.isInteger(typed) && typed > 0 ? priceCredits(pricing, typed) : null;

  const onSubmit = handleSubmit(async ({ credits, method }) => {
    setFailure("");
    setEft(null);
    try {
      const answer = await buy.mutateAsync({ credits: Number(credits), method });
      if (answer.pay_url) {
        globalThis.location.assign(answer.pay_url);
        return;
      }
      setEft(answer);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : "The order was not made. Please try again.");
    }
  });

  if (offer.isPending) return null;
  return (
    <section aria-label="Buy credits" className={card}>
      <h2 className="text-lg font-semibold text-ink">Buy credits</h2>
      {!pricing ? (
        <p className="text-sm text-ink-muted">Buying credits here is not open yet: ask us for credits.</p>
      ) : (
        <>
          <p className="text-sm text-ink-muted" data-testid="credit-prices">
            {formatRand(pricing.price_per_credit)} a credit
            {pricing.tiers.map((t) => `; from ${t.min_credits} credits ${formatRand(t.price_per_credit)} each`).join("")}.
          </p>
          <form onSubmit={onSubmit} noValidate className="grid gap-4 sm:grid-cols-2" aria-label="Buy credits form">
            {failure ? (
              <p role="alert" className="text-sm text-bad sm:col-span-2">
                {failure}
              </p>
            ) : null}
            <FormField id="buy-credits" label="How many credits" required error={errors.credits?.message}>
              <Input id="buy-credits" inputMode="numeric" autoComplete="off" {...register("credits")} />
            </FormField>
            <FormField id="buy-method" label="Pay by" required error={errors.method?.message}>
              <Select id="buy-method" {...register("method")}>
                {methods.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                  </option>
                ))}
              </Select>
            </FormField>
            <p className="text-sm text-ink sm:col-span-2" aria-live="polite" data-testid="credit-quote">
              {quote ? `${typed} credit${typed === 1 ? "" : "s"} × ${formatRand(quote.unit_price)} = ${formatRand(quote.amount)}` : ""}
            </p>
            <div className="sm:col-span-2">
              <Button type="submit" disabled={isSubmitting || methods.length === 0}>
                <ShoppingCart aria-hidden="true" />
                {isSubmitting ? "Making your order..." : "Buy credits"}
              </Button>
            </div>
          </form>
        </>
      )}
      {eft?.bank ? (
        <div role="status" className="rounded-xl border border-line p-4 text-sm" data-testid="eft-details">
          <p className="mb-2 font-semibold text-ink">
            Pay {formatRand(eft.order.amount)} by EFT for {eft.order.credits} credits
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            <dt className="text-ink-muted">Bank</dt>
            <dd>{eft.bank.bank_name}</dd>
            <dt className="text-ink-muted">Account name</dt>
            <dd>{eft.bank.account_name}</dd>
            <dt className="text-ink-muted">Account number</dt>
            <dd className="font-mono">{eft.bank.account_number}</dd>
            <dt className="text-ink-muted">Branch code</dt>
            <dd className="font-mono">{eft.bank.branch_code}</dd>
            <dt className="text-ink-muted">Reference</dt>
            <dd className="font-mono font-semibold" data-testid="eft-reference">
              {eft.order.reference}
            </dd>
          </dl>
          <p className="mt-2 text-ink-muted">Use the reference exactly as shown. Your credits are added once the money reflects.</p>
        </div>
      ) : null}
      <CreditOrders />
    </section>
  );
}

function CreditOrders() {
  const orders = useCreditOrders();
  const queryClient = useQueryClient();
  const delivered = orders.data?.filter((o) => o.status === "delivered").length ?? 0;
  // Credits that arrived: the balance and the ledger are read again.
  useEffect(() => {
    if (delivered > 0) {
      void queryClient.invalidateQueries({ queryKey: partnerKeys.me });
      void queryClient.invalidateQueries({ queryKey: partnerKeys.ledger });
    }
  }, [delivered, queryClient]);
  if (!orders.data?.length) return null;
  return (
    <div>
      <h3 className="mb-2 text-sm font-semibold text-ink">Your orders</h3>
      <ul className="flex flex-col gap-2 text-sm" aria-label="Your credit orders">
        {orders.data.map((o) => (
          <li key={o.id} className="flex flex-wrap justify-between gap-2 border-b border-line pb-2">
            <span>
              {formatDateTime(o.created_at)} · {o.credits} credits · {formatRand(o.amount)} · {o.reference}
            </span>
            <span className={o.status === "delivered" ? "font-semibold text-ok" : "text-ink-muted"}>
              {STATUS_TEXT[o.status] ?? o.status}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
