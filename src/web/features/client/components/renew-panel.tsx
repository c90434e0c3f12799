// Renew now: their own package or another, by card (the provider's checkout page), through one
// of the other providers the owner turned on (their own pages), or by EFT
// (bank details and their reference). The server prices the package; the browser never sends
// an amount. Reminder messages link to /client?renew=1, which lands here.
import { zodResolver } from "@hookform/resolvers/zod";
import { CreditCard, RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import { useEffect, useId, useState } from "react";
import { type Resolver, useForm } from "react-hook-form";
import {
  type ClientPlan,
  type ClientProfile,
  type ClientRenewResponse,
  type RenewRequest,
  renewRequestSchema,
  type SubscriptionStatus,
} from "@/shared/client-schemas";
import { EFT_CARD_ONLY_MESSAGE } from "@/shared/constants";
import { formatRand } from "@/shared/money";
import { EftDetails } from "@/web/components/eft-details";
import { FieldError } from "@/web/components/form-field";
import { PaymentMark } from "@/web/components/payment-marks";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Select } from "@/web/components/ui/select";
import { Skeleton } from "@/web/components/ui/skeleton";
import { ApiError } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
import { usePaymentMethods } from "@/web/lib/queries/payment-methods";
import { findProvider, usePaymentProviders } from "@/web/lib/queries/payment-providers";
import { toast } from "@/web/lib/toast";
import { useClientSpecials } from "../api/get-specials";
import { useRenew } from "../api/renew";
import { goToCheckout } from "./checkout";
import { Field } from "./field";
import { applyFieldErrors } from "./server-errors";

type Method = RenewRequest["method"];
interface RenewValues {
  packageId: string;
  method: Method;
  coupon: string;
}
const FIELDS = ["packageId", "method", "coupon"] as const;
// The form holds what is chosen; the schema turns it into the request.
const resolver = zodResolver(renewRequestSchema) as unknown as Resolver<RenewValues, unknown, RenewRequest>;

/** What paying does, for where the client stands now. */
const RENEW_NOTE: Partial<Record<SubscriptionStatus, string>> = {
  pending: "Your subscription starts as soon as your payment is confirmed.",
  active: "Your new term starts when the current one ends, so you don't lose any days.",
  grace: "Your new term carries on from the day your last one ended.",
  expired: "Your line switches back on as soon as your payment is confirmed, with the same login details.",
};
type EftAnswer = Extract<ClientRenewResponse, { method: "eft" }>;

const planPrice = (plan: ClientPlan) => (typeof plan.price === "number" ? plan.price : 0);

/** Spec §8: the server's reason when it gave one (a suspended account's 409 too), else the generic words. */
function paymentErrorText(error: unknown): string {
  if (error instanceof ApiError && error.code) return error.message;
  if (error instanceof ApiError && error.status === 0) return "Failed to create payment link. Please try again.";
  return "An unexpected error occurred. Please try again.";
}

export function RenewPanel({
  profile,
  preferredPackageId,
  emphasis,
}: {
  profile: ClientProfile;
  preferredPackageId?: string;
  emphasis?: boolean;
}) {
  const specials = useClientSpecials();
  const plans = specials.data?.plans ?? [];
  const renew = useRenew();
  const {
    register,
    handleSubmit,
    setValue,
    setError,
    watch,
    formState: { errors },
  } = useForm<RenewValues, unknown, RenewRequest>({ resolver, defaultValues: { packageId: "", method: "card", coupon: "" } });
  const [packageId, method] = watch(["packageId", "method"]);
  // The ways to pay the shop has on (EFT only once its bank details are filled in); both are
  // offered while that is still loading, and the server refuses what is off in its own words.
  const methods = usePaymentMethods();
  const paymentProviders = usePaymentProviders();
  const providers = methods?.providers ?? [];
  const offered: Method[] = methods
    ? [...(methods.card !== "off" ? ["card" as const] : []), ...providers.map((p) => p.id), ...(methods.eft ? ["eft" as const] : [])]
    : ["card", "eft"];
  const pick = (m: Method): Method => (offered.includes(m) ? m : (offered[0] ?? m));
  const chosen = pick(method);
  const [eft, setEft] = useState<EftAnswer | null>(null);
  const ids = { pkg: useId(), method: useId(), coupon: useId() };

  // Their own package by default, or the one a special's "Renew with this" chose.
  useEffect(() => {
    if (packageId || plans.length === 0) return;
    // A package the shop cannot make a line for yet is listed, not chosen.
    const sellable = plans.filter((p) => !p.unavailable);
    const wanted = [preferredPackageId, profile.subscription.package_id].find((id) => id && sellable.some((p) => p.packageId === id));
    setValue("packageId", wanted ?? sellable.find((p) => p.isCurrent)?.packageId ?? sellable[0]?.packageId ?? plans[0].packageId);
  }, [packageId, plans, preferredPackageId, profile.subscription.package_id, setValue]);

  const plan = plans.find((p) => p.packageId === packageId);
  const first = profile.subscription.status === "pending";

  const submit = handleSubmit(async (request) => {
    if (!plan) return;
    try {
      const answer = await renew.mutateAsync({ packageId: plan.packageId, method: pick(request.method), coupon: request.coupon });
      if (answer.method !== "eft") {
        toast.success("Payment Link Created", { description: "You've been redirected to complete your payment." });
        goToCheckout(answer.paylinkUrl);
      } else {
        setEft(answer);
      }
    } catch (error) {
      const text = paymentErrorText(error);
      toast.error("Payment Error", { description: text });
      applyFieldErrors(error, setError, FIELDS);
      setError("root.server", { type: "server", message: text });
    }
  });
  const failure = errors.root?.server?.message;

  return (
    <Card
      id="renew"
      tabIndex={-1}
      className={cn("scroll-mt-24 p-5 sm:p-6", emphasis && "border-accent/60 ring-2 ring-accent/30")}
      aria-labelledby="renew-heading"
    >
      <h2 id="renew-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        {first ? (
          <CreditCard aria-hidden="true" className="size-5 text-accent-ink" />
        ) : (
          <RefreshCw aria-hidden="true" className="size-5 text-accent-ink" />
        )}
        {first ? "Pay for your subscription" : "Renew now"}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">{RENEW_NOTE[profile.subscription.status] ?? RENEW_NOTE.active}</p>

      {eft ? (
        <EftAnswerPanel eft={eft} onBack={() => setEft(null)} />
      ) : specials.isPending ? (
        <div className="mt-5 flex flex-col gap-3" aria-busy="true">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : plans.length === 0 ? (
        <p className="mt-4 text-sm text-ink-muted" role="status">
          {specials.isError
            ? "We couldn't load the packages just now. Please try again in a moment."
            : "No packages are on offer right now. Please contact us to renew."}
        </p>
      ) : (
        <form className="mt-5 flex flex-col gap-5" onSubmit={submit} noValidate>
          <div className="flex flex-col gap-2">
            <Label htmlFor={ids.pkg}>Package</Label>
            <Select
              id={ids.pkg}
              {...register("packageId")}
              aria-invalid={errors.packageId ? true : undefined}
              aria-describedby={errors.packageId ? `${ids.pkg}-error` : undefined}
            >
              {plans.map((p) => (
                <option key={p.packageId} value={p.packageId} disabled={p.unavailable}>
                  {p.packageName} ({p.duration}) — {formatRand(planPrice(p))}
                  {p.isCurrent ? " · your package" : ""}
                  {p.unavailable ? " · not available yet" : ""}
                </option>
              ))}
            </Select>
            <FieldError id={ids.pkg} error={errors.packageId?.message} />
            {plan?.unavailable ? (
              <p className="text-sm text-warn" role="status">
                This package is not available yet — please choose another or contact us.
              </p>
            ) : plan ? (
              <p className="text-sm text-ink-muted">
                You pay <span className="font-bold text-ink tabular-nums">{formatRand(planPrice(plan))}</span>
                {plan.originalPrice ? (
                  <>
                    {" "}
                    <s className="tabular-nums">{formatRand(plan.originalPrice)}</s>{" "}
                    <span className="font-semibold text-special">{plan.note}</span>
                  </>
                ) : null}{" "}
                for {plan.duration.toLowerCase()}.
              </p>
            ) : null}
          </div>

          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-medium text-ink">How would you like to pay?</legend>
            {offered.length === 0 ? (
              <p className="rounded-xl border border-line bg-surface-raised px-4 py-3 text-sm text-ink-muted" role="status">
                Paying online isn't available just now. Please contact us on WhatsApp and we'll help you renew.
              </p>
            ) : null}
            <div className="grid gap-2 sm:grid-cols-2">
              {offered.includes("card") ? (
                <MethodOption
                  name={ids.method}
                  value="card"
                  checked={chosen === "card"}
                  onChange={(m) => setValue("method", m)}
                  icon={<PaymentMark id="card" />}
                  title="Card"
                  text="Pay now on a secure checkout page."
                />
              ) : null}
              {providers.map((p) => (
                <MethodOption
                  key={p.id}
                  name={ids.method}
                  value={p.id}
                  checked={chosen === p.id}
                  onChange={(m) => setValue("method", m)}
                  icon={<PaymentMark id={p.id} text={findProvider(paymentProviders, p.id)?.mark} />}
                  title={p.name}
                  text={findProvider(paymentProviders, p.id)?.choiceText ?? ""}
                />
              ))}
              {offered.includes("eft") ? (
                <MethodOption
                  name={ids.method}
                  value="eft"
                  checked={chosen === "eft"}
                  onChange={(m) => setValue("method", m)}
                  icon={<PaymentMark id="eft" />}
                  title="EFT"
                  text="Get our bank details and your reference."
                />
              ) : null}
            </div>
            {methods && methods.card !== "off" && !methods.eft ? (
              <p className="text-sm text-ink-muted" data-testid="card-only-note">
                {EFT_CARD_ONLY_MESSAGE}
              </p>
            ) : null}
            {errors.method ? <p className="text-sm text-bad">{errors.method.message}</p> : null}
          </fieldset>

          <Field id={ids.coupon} label="Coupon code (optional)" error={errors.coupon?.message} hint="Taken off the price when you pay.">
            <Input autoComplete="off" autoCapitalize="characters" className="font-mono uppercase" {...register("coupon")} />
          </Field>

          {failure ? (
            <p role="alert" className="rounded-xl border border-bad/40 bg-bad/10 px-4 py-3 text-sm text-ink">
              {failure}
            </p>
          ) : null}
          <Button type="submit" size="lg" disabled={!plan || renew.isPending || offered.length === 0} className="w-full">
            {renew.isPending
              ? "Please wait..."
              : chosen === "card"
                ? `Pay ${plan ? formatRand(planPrice(plan)) : ""} by card`
                : chosen === "eft"
                  ? "Get EFT details"
                  : `Pay ${plan ? formatRand(planPrice(plan)) : ""} with ${providers.find((p) => p.id === chosen)?.name ?? chosen}`}
          </Button>
        </form>
      )}
    </Card>
  );
}

function MethodOption({
  name,
  value,
  checked,
  onChange,
  icon,
  title,
  text,
}: {
  name: string;
  value: Method;
  checked: boolean;
  onChange: (m: Method) => void;
  icon: ReactNode;
  title: string;
  text: string;
}) {
  return (
    <label
      className={cn(
        "flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border p-3 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent-ink/40",
        checked ? "border-accent bg-accent/10" : "border-line bg-surface-raised hover:border-line-strong",
      )}
    >
      <input
        type="radio"
        name={name}
        value={value}
        checked={checked}
        onChange={() => onChange(value)}
        className="mt-1 size-4 accent-[var(--color-accent)]"
      />
      <span className="flex flex-col gap-0.5">
        <span className="flex items-center gap-2 font-semibold text-ink">
          {icon}
          {title}
        </span>
        <span className="text-sm text-ink-muted">{text}</span>
      </span>
    </label>
  );
}

/** The shared EFT details, with the way back to the other ways to pay. */
function EftAnswerPanel({ eft, onBack }: { eft: EftAnswer; onBack: () => void }) {
  return (
    <div className="mt-5 flex flex-col gap-4" role="status">
      <EftDetails eft={eft} afterPayment="We extend your subscription as soon as it arrives." />
      <Button variant="ghost" onClick={onBack} className="self-start">
        Choose another package or pay by card
      </Button>
    </div>
  );
}
