import { useEffect } from "react";
import type { UseFormRegister } from "react-hook-form";
import type { IdentifyResponse } from "@/shared/schemas";
import { FormField, type fieldAria } from "@/web/components/form-field";
import { SendCodeOnWhatsApp } from "@/web/components/send-code-on-whatsapp";
import { Input } from "@/web/components/ui/input";
import { canProve, fieldId, PAY_REVIEW_MESSAGES, type PayerValues } from "./pay-review-model";

/** "If WhatsApp ending 4567 is on an account with us, we've sent a code there": the code, the WhatsApp way, or on as a new customer. */
export function IdentityStep({
  answer,
  error,
  aria,
  field,
}: {
  answer: IdentifyResponse;
  error?: string;
  aria: ReturnType<typeof fieldAria>;
  field: ReturnType<UseFormRegister<PayerValues>>;
}) {
  // The code is what the payer does next, where one can come: the cursor waits there. Where none
  // can (nothing typed reaches one, no link), the answer itself is brought into view and read out;
  // the field stays for a code the payer already has, as on every answer (issue 46).
  const provable = canProve(answer);
  useEffect(() => document.getElementById(provable ? fieldId("verificationCode") : "payer-identity-title")?.focus(), [provable]);
  return (
    <section aria-labelledby="payer-identity-title" className="rounded-xl bg-accent/10 p-4 ring-1 ring-accent/30">
      <h3 id="payer-identity-title" tabIndex={-1} className="text-sm font-semibold text-ink outline-none">
        Pay on your account
      </h3>
      <p className="mt-1 text-sm text-ink-muted" role="status">
        {answer.message}
      </p>
      {answer.waLink ? (
        <div className="mt-2 flex flex-col gap-2">
          <p className="text-sm text-ink-muted">{PAY_REVIEW_MESSAGES.byWhatsApp}</p>
          <SendCodeOnWhatsApp href={answer.waLink} />
        </div>
      ) : null}
      <FormField id={fieldId("verificationCode")} label="Code" error={error} hint={PAY_REVIEW_MESSAGES.asNew} className="mt-3">
        <Input
          id={fieldId("verificationCode")}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={7}
          className="max-w-40 font-mono tracking-widest"
          {...aria}
          {...field}
        />
      </FormField>
    </section>
  );
}
