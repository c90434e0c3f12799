// The review step between Pay Now and the payment (ECT Act s43: review before confirming): the
// package and the price to pay, what happens after paying, who is paying (name, WhatsApp, an
// optional e-mail, with the POPIA notice) and the s44 consent to start at once, unticked. Then a
// card pay link in a new tab, or EFT details: side by side when both are on, the one that is on
// otherwise (card only says so: EFT waits for real bank details). When the owner turned on other
// providers beside the card provider, the visitor picks one of the ways to pay first (a radio group).
// Loaded on first use: it brings Radix, zod and the shared payer schema with it.
import { zodResolver } from "@hookform/resolvers/zod";
import { CreditCard, FlaskConical, KeyRound, Landmark, Loader2, Wallet } from "lucide-react";
import { type Resolver, useForm } from "react-hook-form";
import { AUTO_RENEW_LABEL } from "@/shared/auto-renew";
import { needsMac } from "@/shared/device-lines";
import { LOGIN_HINTS } from "@/shared/login-channel";
import type { PlanViewModel } from "@/shared/pricing";
import { type PayerDevice, payerDeviceSchema } from "@/shared/schemas";
import { EmailField, FullNameField, WhatsAppField } from "@/web/components/contact-fields";
import { DeviceLineField } from "@/web/components/device-line-field";
import { CheckboxField } from "@/web/components/form-field";
import { PopiaNotice } from "@/web/components/popia-notice";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { BackButton } from "./pay-review-back-button";
import { EftStep } from "./pay-review-eft-step";
import { ExtrasSection } from "./pay-review-extras";
import { IdentityStep } from "./pay-review-identity-step";
import { MethodChoice } from "./pay-review-method-choice";
import { canProve, EMPTY, fieldId, PAY_REVIEW_MESSAGES, type PayerValues, submitLabel } from "./pay-review-model";
import { NextSteps, PlanSummary } from "./pay-review-summary";
import { usePayReview } from "./use-pay-review";

// The form holds what is typed (the consent starts unticked); the schema turns it into a Payer and its device.
const resolver = zodResolver(payerDeviceSchema) as unknown as Resolver<PayerValues, unknown, PayerDevice>;

export interface PayReviewDialogProps {
  /** a plan that can be paid online (canPayOnline) */
  plan: PlanViewModel & { packageId: string };
  onClose: () => void;
  /** back to where the visitor came from (the plan's details); without it the button cancels */
  onBack?: () => void;
  /** the order form with this plan, when no way to pay online is on */
  onOrder: (plan: PlanViewModel) => void;
}

export function PayReviewDialog({ plan, onClose, onBack, onOrder }: PayReviewDialogProps) {
  const form = useForm<PayerValues, unknown, PayerDevice>({
    defaultValues: EMPTY,
    resolver,
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const {
    register,
    watch,
    formState: { errors, isSubmitting },
  } = form;
  const { review, code, coupon, payment } = usePayReview({ plan, onClose, form });
  const { aria, loginChannel } = review;
  const { method } = payment;
  // the pay buttons ask for the code only where one can have come (else Pay goes on as a new customer)
  const askCode = code.answer !== null && canProve(code.answer);

  return (
    <Dialog open onOpenChange={(open) => (open || isSubmitting ? undefined : onClose())}>
      <DialogContent
        className="max-w-xl"
        data-testid="pay-review"
        onOpenAutoFocus={(event) => {
          const first = (event.currentTarget as HTMLElement | null)?.querySelector<HTMLInputElement>(`#${fieldId("name")}`);
          if (!first) return; // Radix focuses the first control it finds
          event.preventDefault();
          first.focus();
        }}
      >
        {payment.eft ? (
          <EftStep eft={payment.eft} plan={plan} onClose={onClose} />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Review your order</DialogTitle>
              <DialogDescription>Check your package, then tell us who's paying so we can set up your account.</DialogDescription>
            </DialogHeader>

            <PlanSummary plan={plan} quote={coupon.quote} />
            {payment.choices.length > 1 ? <MethodChoice choices={payment.choices} chosen={method} onChoose={payment.pick} /> : null}
            <NextSteps method={method} providerName={payment.providerName} box={needsMac(watch("lineType"))} loginChannel={loginChannel} />

            {method === "none" ? (
              <>
                <p role="status" className="mt-5 rounded-xl bg-warn/10 p-4 text-sm text-ink ring-1 ring-warn/30">
                  {PAY_REVIEW_MESSAGES.unavailable}
                </p>
                <DialogFooter>
                  <BackButton onBack={onBack} onClose={onClose} />
                  <Button onClick={() => onOrder(plan)}>Order Now</Button>
                </DialogFooter>
              </>
            ) : (
              <form noValidate onSubmit={review.onSubmit} aria-label="Your details" className="mt-6 flex flex-col gap-5">
                <div className="grid gap-5 sm:grid-cols-2">
                  <FullNameField id={fieldId("name")} field={register("name")} error={errors.name?.message} />
                  <WhatsAppField
                    id={fieldId("whatsapp")}
                    field={register("whatsapp")}
                    error={errors.whatsapp?.message}
                    hint={LOGIN_HINTS[loginChannel].whatsapp}
                  />
                  <EmailField
                    id={fieldId("email")}
                    field={register("email")}
                    error={errors.email?.message}
                    hint={LOGIN_HINTS[loginChannel].email}
                  />
                </div>

                <DeviceLineField
                  idPrefix="payer"
                  lineType={watch("lineType")}
                  mac={watch("mac")}
                  typeField={register("lineType")}
                  macField={register("mac")}
                  typeError={errors.lineType?.message}
                  macError={errors.mac?.message}
                />

                {code.answer ? (
                  <IdentityStep
                    answer={code.answer}
                    error={errors.verificationCode?.message}
                    aria={aria("verificationCode", true)}
                    field={register("verificationCode")}
                  />
                ) : (
                  <div className="flex flex-col items-start gap-1">
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      className="px-1"
                      onClick={code.ask}
                      disabled={code.asking || isSubmitting}
                    >
                      {code.asking ? <Loader2 aria-hidden="true" className="animate-spin" /> : <KeyRound aria-hidden="true" />}
                      {PAY_REVIEW_MESSAGES.returning}
                    </Button>
                    <p className="text-xs text-ink-subtle">{PAY_REVIEW_MESSAGES.returningHint}</p>
                  </div>
                )}

                <ExtrasSection register={register} aria={aria} errors={errors} quote={coupon.quote} onApply={coupon.apply} />

                <PopiaNotice
                  collected="your name, WhatsApp number and, if you give it, your e-mail address"
                  purpose="create your account and send you your login details and receipts"
                  required="Your name and WhatsApp number are required; your e-mail address is optional."
                />

                <CheckboxField
                  id={fieldId("immediateStartConsent")}
                  error={errors.immediateStartConsent?.message}
                  required
                  input={
                    <input
                      id={fieldId("immediateStartConsent")}
                      type="checkbox"
                      aria-required="true"
                      {...aria("immediateStartConsent")}
                      {...register("immediateStartConsent")}
                      className="mt-0.5 size-5 shrink-0 accent-accent"
                    />
                  }
                >
                  {PAY_REVIEW_MESSAGES.consent}
                </CheckboxField>

                {payment.renewal ? (
                  <CheckboxField
                    id="payer-autoRenew"
                    input={
                      <input
                        id="payer-autoRenew"
                        type="checkbox"
                        {...register("autoRenew")}
                        className="mt-0.5 size-5 shrink-0 accent-accent"
                      />
                    }
                  >
                    <span className="font-medium">{AUTO_RENEW_LABEL}</span>
                    <span id="payer-autoRenew-consent" className="mt-1 block text-xs text-ink-subtle">
                      {payment.renewal}
                    </span>
                  </CheckboxField>
                ) : null}

                {method === "card" && payment.choices.length === 0 ? (
                  <p className="flex items-center gap-2 text-xs text-ink-subtle" data-testid="card-only-note">
                    <CreditCard aria-hidden="true" className="size-3.5 shrink-0" />
                    {PAY_REVIEW_MESSAGES.cardOnly}
                  </p>
                ) : null}
                {payment.testCheckout && (method === "card" || method === "both") ? (
                  <p className="flex items-center gap-2 text-xs text-ink-subtle" data-testid="test-checkout-note">
                    <FlaskConical aria-hidden="true" className="size-3.5 shrink-0" />
                    {PAY_REVIEW_MESSAGES.testCheckout}
                  </p>
                ) : null}

                <DialogFooter className="mt-1">
                  <BackButton onBack={onBack} onClose={onClose} disabled={isSubmitting} />
                  {askCode ? (
                    <Button type="submit" variant="outline" data-as-new="true" disabled={isSubmitting}>
                      Continue as a new customer
                    </Button>
                  ) : null}
                  {method === "both" ? (
                    // card and EFT side by side: each button pays its own way
                    <div className="grid grid-cols-1 gap-3 sm:flex sm:gap-2" data-testid="pay-methods">
                      <Button
                        type="submit"
                        data-method="card"
                        variant={plan.hasSpecial ? "special" : "primary"}
                        disabled={isSubmitting}
                        aria-disabled={isSubmitting}
                      >
                        {isSubmitting ? <Loader2 aria-hidden="true" className="animate-spin" /> : <CreditCard aria-hidden="true" />}
                        {askCode ? "Sign in and pay" : "Continue to payment by card"}
                      </Button>
                      <Button type="submit" data-method="eft" variant="outline" disabled={isSubmitting} aria-disabled={isSubmitting}>
                        <Landmark aria-hidden="true" />
                        {askCode ? "Sign in and get EFT details" : "Get EFT details"}
                      </Button>
                    </div>
                  ) : (
                    <Button
                      type="submit"
                      variant={plan.hasSpecial ? "special" : "primary"}
                      disabled={isSubmitting || method === undefined}
                      aria-disabled={isSubmitting || method === undefined}
                    >
                      {isSubmitting || method === undefined ? (
                        <Loader2 aria-hidden="true" className="animate-spin" />
                      ) : method === "eft" ? (
                        <Landmark aria-hidden="true" />
                      ) : method === "card" ? (
                        <CreditCard aria-hidden="true" />
                      ) : (
                        <Wallet aria-hidden="true" />
                      )}
                      {askCode && !isSubmitting ? "Sign in and pay" : submitLabel(method, isSubmitting, payment.providerName)}
                    </Button>
                  )}
                </DialogFooter>
              </form>
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
