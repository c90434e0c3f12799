// 'Express Your Interest' (spec §2, §4, §5, §8): the chosen plan (name, duration, price) and
// the interest form. Closing the dialog resets the form (it unmounts); a successful submission
// closes it. Loaded on first use: it brings Radix and the shared form schema (zod) with it.
import { Loader2, Send } from "lucide-react";
import { type FormEvent, useId, useRef, useState } from "react";
import { toast } from "sonner";
import type { PlanViewModel } from "@/shared/pricing";
import { isFreePlan } from "@/shared/pricing";
import { INTEREST_REQUIRED_MESSAGE, interestFormSchema } from "@/shared/schemas";
import { PopiaNotice } from "@/web/components/popia-notice";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { ApiError } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
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

export function InterestDialog({ plan, onClose }: InterestDialogProps) {
  const [values, setValues] = useState<FormValues>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [submitting, setSubmitting] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  const free = isFreePlan(plan);

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    if (key in errors) setErrors(({ [key as FieldName]: _, ...rest }) => rest);
  };

  const focusField = (name: FieldName) => formRef.current?.querySelector<HTMLInputElement>(`[name="${name}"]`)?.focus();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (submitting) return;

    // Spec §5: any required field empty → one toast, and each empty field marked.
    const missing = REQUIRED.filter((name) => values[name].trim() === "");
    if (missing.length) {
      setErrors(Object.fromEntries(missing.map((name) => [name, "This field is required."])));
      toast.error(INTEREST_MESSAGES.missingTitle, { description: INTEREST_MESSAGES.missing });
      focusField(missing[0]);
      return;
    }

    const submission = {
      ...values,
      packageName: plan.packageName,
      packagePrice: plan.price === 0 ? ("FREE" as const) : plan.price,
      duration: plan.duration,
    };
    // The same schema the server applies: a bad e-mail or phone number is shown at the field.
    const parsed = interestFormSchema.safeParse(submission);
    if (!parsed.success) {
      const fieldErrors: Partial<Record<FieldName, string>> = {};
      for (const issue of parsed.error.issues) {
        const name = issue.path[0];
        if (typeof name === "string" && (REQUIRED as readonly string[]).includes(name)) fieldErrors[name as FieldName] ??= issue.message;
      }
      setErrors(fieldErrors);
      const first = REQUIRED.find((name) => fieldErrors[name]);
      if (first) focusField(first);
      return;
    }

    setSubmitting(true);
    try {
      await submitInterest(submission);
      toast.success(INTEREST_MESSAGES.successTitle, { description: free ? INTEREST_MESSAGES.successTrial : INTEREST_MESSAGES.successPaid });
      onClose();
    } catch (error) {
      if (error instanceof ApiError) {
        // The server's field messages, where it gave them, beside the fields.
        const fromServer = Object.fromEntries(
          Object.entries(error.fields).filter(([name]) => (REQUIRED as readonly string[]).includes(name)),
        );
        if (Object.keys(fromServer).length) setErrors(fromServer);
        toast.error(INTEREST_MESSAGES.failedTitle, { description: INTEREST_MESSAGES.failed });
      } else {
        console.error(error);
        toast.error(INTEREST_MESSAGES.unexpectedTitle, { description: INTEREST_MESSAGES.unexpected });
      }
      setSubmitting(false);
    }
  }

  const field = (
    name: FieldName,
    label: string,
    props: { type?: string; autoComplete: string; placeholder?: string; inputMode?: "tel" | "email" },
  ) => {
    const inputId = `${id}-${name}`;
    const errorId = `${inputId}-error`;
    const error = errors[name];
    return (
      <div className="flex flex-col gap-2">
        <Label htmlFor={inputId} required>
          {label}
        </Label>
        <Input
          id={inputId}
          name={name}
          required
          value={values[name]}
          onChange={(event) => set(name, event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          type={props.type ?? "text"}
          autoComplete={props.autoComplete}
          placeholder={props.placeholder}
          inputMode={props.inputMode}
        />
        {error ? (
          <p id={errorId} className="text-sm text-bad">
            {error}
          </p>
        ) : null}
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

        <form ref={formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Interest form">
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
                    values.communicationMethod === value
                      ? "border-accent-ink bg-accent-soft"
                      : "border-line bg-surface-raised hover:border-line-strong",
                  )}
                >
                  <input
                    type="radio"
                    name="communicationMethod"
                    value={value}
                    checked={values.communicationMethod === value}
                    onChange={() => set("communicationMethod", value)}
                    className="size-4 accent-accent"
                  />
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
            <input
              type="checkbox"
              name="marketingOptIn"
              checked={values.marketingOptIn}
              onChange={(event) => set("marketingOptIn", event.target.checked)}
              className="mt-0.5 size-5 shrink-0 accent-accent"
            />
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
