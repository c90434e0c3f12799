// 'Express Your Interest' (spec §2, §4, §5, §8): the chosen plan (name, duration, price) and
// the interest form. Closing the dialog resets the form (it unmounts); a successful submission
// closes it. Loaded on first use: it brings Radix and the shared form schema (zod) with it.
import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2, Send } from "lucide-react";
import { useId, useState } from "react";
import { type Resolver, useForm } from "react-hook-form";
import type { PlanViewModel } from "@/shared/pricing";
import { isFreePlan } from "@/shared/pricing";
import { INTEREST_REQUIRED_MESSAGE, interestFormSchema } from "@/shared/schemas";
import { FieldError, fieldAria } from "@/web/components/form-field";
import { PopiaNotice } from "@/web/components/popia-notice";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { ApiError } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";
import { submitInterest } from "./api/submit-interest";
import { priceLabel } from "./plan-actions";

export const INTEREST_MESSAGES = {
  missingTitle: "Missing Information",
  missing: INTEREST_REQUIRED_MESSAGE,
  successTitle: "Interest Submitted Successfully!",
  successTrial: "We'll contact you by e-mail or WhatsApp to set up your free trial.",
  successPaid: "We'll contact you by e-mail or WhatsApp with payment details.",
  failedTitle: "Submission Failed",
  failed: "There was an error processing your request. Please try again.",
  unexpectedTitle: "Error",
  unexpected: "An unexpected error occurred. Please try again.",
} as const;

type Method = "whatsapp" | "email";
type FieldName = "firstName" | "lastName" | "email" | "whatsapp";

interface FormValues {
  firstName: string;
  lastName: string;
  email: string;
  whatsapp: string;
  communicationMethod: Method;
  marketingOptIn: boolean;
}

const EMPTY: FormValues = { firstName: "", lastName: "", email: "", whatsapp: "", communicationMethod: "whatsapp", marketingOptIn: false };
const REQUIRED: readonly FieldName[] = ["firstName", "lastName", "email", "whatsapp"];

export interface InterestDialogProps {
  plan: PlanViewModel;
  onClose: () => void;
}

/** What is sent: the form as typed, with the chosen plan. */
const submissionOf = (values: FormValues, plan: PlanViewModel) => ({
  ...values,
  packageName: plan.packageName,
  packagePrice: plan.price === 0 ? ("FREE" as const) : plan.price,
  duration: plan.duration,
});

// The same schema the server applies (over the submission: the form and the plan): a bad e-mail
// or phone number is shown at the field.
const checkInterest = zodResolver(interestFormSchema) as unknown as Resolver<FormValues>;

/** Spec §5: any required field empty → each empty field marked; else the shared schema, shown at the four fields. */
function interestResolver(plan: PlanViewModel): Resolver<FormValues> {
  return async (values, context, options) => {
    const missing = REQUIRED.filter((name) => values[name].trim() === "");
    if (missing.length) {
      const errors = Object.fromEntries(missing.map((name) => [name, { type: "required", message: "This field is required." }]));
      return { values: {}, errors };
    }
    const checked = await checkInterest(submissionOf(values, plan), context, options);
    // what is typed is sent as typed (the server parses it)
    return Object.keys(checked.errors).length ? { values: {}, errors: checked.errors } : { values, errors: {} };
  };
}

export function InterestDialog({ plan, onClose }: InterestDialogProps) {
  const [resolver] = useState(() => interestResolver(plan));
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    watch,
    formState: { errors, isSubmitting: submitting },
  } = useForm<FormValues>({ resolver, defaultValues: EMPTY, mode: "onSubmit", reValidateMode: "onSubmit" });
  const id = useId();
  const free = isFreePlan(plan);
  const communicationMethod = watch("communicationMethod");

  const onSubmit = handleSubmit(
    async (values) => {
      try {
        await submitInterest(submissionOf(values, plan));
        toast.success(INTEREST_MESSAGES.successTitle, {
          description: free ? INTEREST_MESSAGES.successTrial : INTEREST_MESSAGES.successPaid,
        });
        onClose();
      } catch (error) {
        if (error instanceof ApiError) {
          // The server's field messages, where it gave them, beside the fields.
          for (const name of REQUIRED) {
            if (error.fields[name]) setError(name, { type: "server", message: error.fields[name] });
          }
          toast.error(INTEREST_MESSAGES.failedTitle, { description: INTEREST_MESSAGES.failed });
        } else {
          console.error(error);
          toast.error(INTEREST_MESSAGES.unexpectedTitle, { description: INTEREST_MESSAGES.unexpected });
        }
      }
    },
    (found) => {
      // Spec §5: empty required fields → one toast (the first problem field is focused).
      if (REQUIRED.some((name) => found[name]?.type === "required")) {
        toast.error(INTEREST_MESSAGES.missingTitle, { description: INTEREST_MESSAGES.missing });
      }
    },
  );

  const field = (
    name: FieldName,
    label: string,
    props: { type?: string; autoComplete: string; placeholder?: string; inputMode?: "tel" | "email" },
  ) => {
    const inputId = `${id}-${name}`;
    const error = errors[name]?.message;
    return (
      <div className="flex flex-col gap-2">
        <Label htmlFor={inputId} required>
          {label}
        </Label>
        <Input
          id={inputId}
          required
          // typing in a field clears its message until the next submit
          {...register(name, { onChange: () => clearErrors(name) })}
          {...fieldAria(inputId, { error })}
          type={props.type ?? "text"}
          autoComplete={props.autoComplete}
          placeholder={props.placeholder}
          inputMode={props.inputMode}
        />
        <FieldError id={inputId} error={error} />
      </div>
    );
  };

  return (
    <Dialog open onOpenChange={(open) => (open || submitting ? undefined : onClose())}>
      <DialogContent
        className="max-w-xl"
        // The dialog itself takes focus, not the first field: on phones a focused field opens the
        // keyboard over the plan summary before the visitor has read it.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          (event.currentTarget as HTMLElement | null)?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>Express Your Interest</DialogTitle>
          <DialogDescription>
            Leave your details and we'll get back to you{free ? " to set up your free trial" : " with payment details"}. No payment is taken
            now.
          </DialogDescription>
        </DialogHeader>

        <dl className="mb-6 grid grid-cols-3 gap-3 rounded-xl border border-line bg-surface-raised p-4 text-sm" data-testid="interest-plan">
          <div className="min-w-0">
            <dt className="text-ink-subtle">Package</dt>
            <dd className="truncate font-semibold text-ink">{plan.packageName}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-ink-subtle">Duration</dt>
            <dd className="font-semibold text-ink">{plan.duration}</dd>
          </div>
          <div className="min-w-0">
            <dt className="text-ink-subtle">Price</dt>
            <dd className="tabular font-semibold text-ink">{priceLabel(plan)}</dd>
          </div>
        </dl>

        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Interest form">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            {field("firstName", "First name", { autoComplete: "given-name" })}
            {field("lastName", "Last name", { autoComplete: "family-name" })}
          </div>
          {field("email", "E-mail address", { type: "email", autoComplete: "email", inputMode: "email" })}
          {field("whatsapp", "WhatsApp number", { type: "tel", autoComplete: "tel", placeholder: "+27XXXXXXXXX", inputMode: "tel" })}

          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-medium text-ink">How should we contact you?</legend>
            <div className="grid grid-cols-2 gap-3">
              {(
                [
                  ["whatsapp", "WhatsApp"],
                  ["email", "E-mail"],
                ] as const
              ).map(([value, label]) => (
                <label
                  key={value}
                  className={cn(
                    "flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border px-4 text-ink transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent-ink/50",
                    communicationMethod === value
                      ? "border-accent-ink bg-accent-soft"
                      : "border-line bg-surface-raised hover:border-line-strong",
                  )}
                >
                  <input type="radio" value={value} {...register("communicationMethod")} className="size-4 accent-accent" />
                  {label}
                </label>
              ))}
            </div>
          </fieldset>

          <PopiaNotice
            collected="your name, e-mail address and WhatsApp number"
            purpose={
              free
                ? "contact you about this package and set up your free trial"
                : "contact you about this package and send you payment details"
            }
          />

          <label className="flex cursor-pointer items-start gap-3 text-sm text-ink-muted">
            <input type="checkbox" {...register("marketingOptIn")} className="mt-0.5 size-5 shrink-0 accent-accent" />
            <span>Also send me specials and news by WhatsApp or e-mail. Optional: you can opt out at any time.</span>
          </label>

          <Button type="submit" size="lg" disabled={submitting} className="mt-2 w-full">
            {submitting ? <Loader2 aria-hidden="true" className="animate-spin" /> : <Send aria-hidden="true" />}
            {submitting ? "Submitting..." : "Submit Interest"}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
