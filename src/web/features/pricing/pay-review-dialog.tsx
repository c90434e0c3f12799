// The review step between Pay Now and the payment (ECT Act s43: review before confirming): the
// package and the price to pay, what happens after paying, who is paying (name, WhatsApp, an
// optional e-mail, with the POPIA notice) and the s44 consent to start at once, unticked. Then a
// card pay link in a new tab, or EFT details: side by side when both are on, the one that is on
// otherwise (card only says so: EFT waits for real bank details). When the owner turned on other
// providers beside the card provider, the visitor picks one of the ways to pay first (a radio group).
// Loaded on first use: it brings Radix, zod and the shared payer schema with it.
import { zodResolver } from "@hookform/resolvers/zod";
import { ArrowLeft, CreditCard, FlaskConical, KeyRound, Landmark, Loader2, Wallet } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { type FieldErrors, type Resolver, type UseFormRegister, useForm } from "react-hook-form";
import type { EftResponse, HostedPaymentMethod, PaymentMethods, PaymentProviderInfo } from "@/shared/api";
import { AUTO_RENEW_LABEL, autoRenewConsent } from "@/shared/auto-renew";
import type { CouponQuote } from "@/shared/billing";
import { EFT_CARD_ONLY_MESSAGE } from "@/shared/constants";
import { needsMac } from "@/shared/device-lines";
import { LOGIN_HINTS, promisedLoginChannel } from "@/shared/login-channel";
import { formatRand } from "@/shared/money";
import { type PlanViewModel, packageMonths } from "@/shared/pricing";
import {
  type IdentifyResponse,
  type PayerDevice,
  payerDeviceSchema,
  VERIFICATION_CODE_MESSAGES,
  verificationCodeSchema,
} from "@/shared/schemas";
import { DeviceLineField, deviceRequest } from "@/web/components/device-line-field";
import { EftDetails } from "@/web/components/eft-details";
import { CheckboxField, FormField, fieldAria } from "@/web/components/form-field";
import { PaymentMark, type PaymentMarkId } from "@/web/components/payment-marks";
import { PopiaNotice } from "@/web/components/popia-notice";
import { SendCodeOnWhatsApp } from "@/web/components/send-code-on-whatsapp";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { ApiError } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
import { closeTab } from "@/web/lib/new-tab";
import { usePaymentMethods } from "@/web/lib/queries/payment-methods";
import { findProvider, usePaymentProviders } from "@/web/lib/queries/payment-providers";
import { toast } from "@/web/lib/toast";
import { checkCoupon } from "./api/check-coupon";
import { identifyPayer } from "./api/identify-payer";
import { openPaymentTab, PAYER_FIELDS, PAYMENT_MESSAGES, type PayerField, payByCard, payByEft } from "./pay-now";
import { priceLabel } from "./plan-actions";

export const PAY_REVIEW_MESSAGES = {
  consent: "Start my subscription as soon as I have paid. I understand this waives the 7-day cooling-off period.",
  testCheckout: "Test checkout: no real money is taken.",
  eftAfter: "We'll activate your account when the payment reflects.",
  unavailable: "Online payment isn't available at the moment. Place an order and we'll send you the payment details on WhatsApp.",
  /** issue 46: a returning customer asks for the code; a new one goes straight to payment */
  returning: "Already a customer? Get a code to pay on your account",
  returningHint: "Type the WhatsApp number (or e-mail address) on your account first.",
  asNew: "Continuing as a new customer makes a new account. If it turns out to be you, we join the two.",
  cardOnly: EFT_CARD_ONLY_MESSAGE,
  byWhatsApp: "Or tap the button and send the message from your account's WhatsApp number, then pay: no code to type.",
} as const;

/** The code the wa.me link writes: once that message has reached the shop, it pays on the account. */
const codeOfLink = (waLink: string): string => decodeURIComponent(waLink.split("?text=")[1] ?? "").match(/\d{6}/)?.[0] ?? "";

/** What the review step offers: card, EFT, both side by side, a provider picked, or neither (the order form instead). */
type Method = "card" | "eft" | "both" | "none" | HostedPaymentMethod;
/** one way to pay, as a submit button or the radio group chooses it */
type Way = "card" | "eft" | HostedPaymentMethod;

interface PayerValues {
  name: string;
  whatsapp: string;
  email: string;
  immediateStartConsent: boolean;
  coupon: string;
  company: string;
  address: string;
  vatNumber: string;
  /** the one-time code, asked for only when the number or e-mail is already a client's */
  verificationCode: string;
  /** the device the line is for (m3u: an app), and a box's MAC */
  lineType: string;
  mac: string;
  /** "Renew automatically with this card": offered only for a provider that keeps the card; off by default */
  autoRenew: boolean;
}

const EMPTY: PayerValues = {
  name: "",
  whatsapp: "",
  email: "",
  immediateStartConsent: false,
  coupon: "",
  company: "",
  address: "",
  vatNumber: "",
  verificationCode: "",
  lineType: "m3u",
  mac: "",
  autoRenew: false,
};
// The form holds what is typed (the consent starts unticked); the schema turns it into a Payer and its device.
const resolver = zodResolver(payerDeviceSchema) as unknown as Resolver<PayerValues, unknown, PayerDevice>;

/** A provider whose checkout can keep the card for renewals we charge (the registry's capability). */
const savesCard = (providers: readonly PaymentProviderInfo[] | undefined, method: string) =>
  findProvider(providers, method)?.capabilities.chargeSavedCard === true;

/** The field's control id (its error is `{id}-error`). */
const fieldId = (name: PayerField) => `payer-${name}`;

function paymentMethod(methods: PaymentMethods | undefined): Method | undefined {
  if (!methods) return undefined;
  if (methods.providers?.length) return methods.card !== "off" ? "card" : methods.providers[0].id;
  if (methods.card !== "off") return methods.eft ? "both" : "card";
  return methods.eft ? "eft" : "none";
}

/**
 * The ways to pay offered side by side once the owner turned on another provider: card (when on),
 * each provider by name, and EFT (when its bank details are in). Empty when there is only one way.
 */
function methodChoices(
  methods: PaymentMethods | undefined,
  providers: readonly PaymentProviderInfo[] | undefined,
): { id: Method; name: string; text: string; mark?: string }[] {
  if (!methods?.providers?.length) return [];
  return [
    ...(methods.card !== "off" ? [{ id: "card" as const, name: "Card", text: "Pay by card on a secure payment page." }] : []),
    ...methods.providers.map((p) => {
      const info = findProvider(providers, p.id);
      return { id: p.id, name: p.name, text: info?.choiceText ?? "", mark: info?.mark };
    }),
    ...(methods.eft ? [{ id: "eft" as const, name: "EFT", text: "Get our bank details and your reference." }] : []),
  ];
}

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
  const methods = usePaymentMethods();
  const providers = usePaymentProviders();
  const choices = methodChoices(methods, providers);
  const testCheckout = methods ? findProvider(providers, methods.card)?.test === true : false;
  const [picked, setPicked] = useState<Method | null>(null);
  // The first way on offer (the card provider when it is on) until the visitor picks another.
  const method = picked && choices.some((c) => c.id === picked) ? picked : paymentMethod(methods);
  const providerName = methods?.providers?.find((p) => p.id === method)?.name;
  const [eft, setEft] = useState<EftResponse | null>(null);
  const [quote, setQuote] = useState<CouponQuote | null>(null);
  const { register, handleSubmit, getValues, setError, clearErrors, formState, watch, trigger } = useForm<
    PayerValues,
    unknown,
    PayerDevice
  >({
    defaultValues: EMPTY,
    resolver,
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const { errors, isSubmitting } = formState;

  // Who is paying: asked of the server once per number and e-mail typed (identifyPayer).
  const [identity, setIdentity] = useState<{ key: string; answer: IdentifyResponse } | null>(null);
  const asNew = useRef(false);

  const send = async (payer: PayerDevice, tab: Window | null, way: Way) => {
    const key = `${payer.whatsapp}|${payer.email ?? ""}`;
    const known = identity?.key === key ? identity.answer : null;
    let verificationCode: string | undefined;
    if (known && !asNew.current) {
      // nothing typed, and the link was offered: its code (proved once the message arrives)
      const typed = getValues("verificationCode").trim();
      const code = verificationCodeSchema.safeParse(typed || !known.waLink ? typed : codeOfLink(known.waLink));
      if (!code.success) {
        closeTab(tab);
        setError("verificationCode", { type: "client", message: VERIFICATION_CODE_MESSAGES.format }, { shouldFocus: true });
        return;
      }
      verificationCode = code.data;
    }
    const { lineType: _type, mac: _mac, ...who } = payer;
    const request = {
      packageId: plan.packageId,
      ...who,
      ...deviceRequest(payer),
      ...(verificationCode ? { verificationCode } : {}),
      ...(way !== "card" && way !== "eft" && savesCard(providers, way) && getValues("autoRenew") ? { autoRenew: true } : {}),
    };
    const attempt = way === "eft" ? await payByEft(request) : await payByCard(way === "card" ? request : { ...request, method: way }, tab);
    if (attempt.ok) {
      if (attempt.value) setEft(attempt.value);
      else onClose();
      return;
    }
    // What the visitor typed stays; the server's reasons go beside the fields they are about.
    const named = PAYER_FIELDS.filter((name) => attempt.fields[name]);
    named.forEach((name, i) => {
      setError(name, { type: "server", message: attempt.fields[name] }, { shouldFocus: i === 0 });
    });
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSubmitting || method === undefined || method === "none") return;
    // Which button sent it: "Continue as a new customer" skips the code; with both ways on, each
    // pay button names its own (Enter in a field is the first: card).
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    asNew.current = submitter?.getAttribute("data-as-new") === "true";
    const way: Way = method === "both" ? (submitter?.getAttribute("data-method") === "eft" ? "eft" : "card") : method;
    // The pay link's tab opens now, inside the click (popup blockers), and only for details that will pass.
    const tab = way !== "eft" && payerDeviceSchema.safeParse(getValues()).success ? openPaymentTab() : null;
    void handleSubmit(
      (payer) => send(payer, tab, way),
      () => closeTab(tab),
    )(event);
  };

  const aria = (name: PayerField, hint = false) => fieldAria(fieldId(name), { error: errors[name]?.message, hint });
  const typedKey = `${watch("whatsapp")}|${watch("email")}`;
  const askCode = Boolean(identity && identity.key === normalisedKey(typedKey));
  // "Already a customer?": the same answer whoever the number belongs to; the code field follows
  const [asking, setAsking] = useState(false);
  const askForCode = async () => {
    if (!(await trigger(["whatsapp", "email"]))) return;
    const { whatsapp, email } = getValues();
    setAsking(true);
    const asked = await identify({ whatsapp: whatsapp.trim(), email: email?.trim() });
    setAsking(false);
    if (!asked.ok) {
      asked.fields.forEach(([name, message], i) => {
        setError(name, { type: "server", message }, { shouldFocus: i === 0 });
      });
      return;
    }
    asNew.current = false;
    setIdentity({ key: normalisedKey(`${whatsapp}|${email ?? ""}`), answer: asked.answer });
  };
  // the hints promise the login where it will go (the outbox's rule, shared/login-channel.ts)
  const loginChannel = promisedLoginChannel(methods?.loginChannel, watch("email") ?? "");
  // the consent sentence: the plan's price and period (what each renewal charges, and when)
  const renewal =
    method && savesCard(providers, method) && typeof plan.price === "number"
      ? autoRenewConsent(
          Math.round((plan.originalPrice ?? plan.price) * 100),
          packageMonths({ duration_months: null, duration: plan.duration, name: plan.packageName }) ?? 1,
        )
      : null;

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
        {eft ? (
          <EftStep eft={eft} plan={plan} onClose={onClose} />
        ) : (
          <>
            <DialogHeader>
              <DialogTitle>Review your order</DialogTitle>
              <DialogDescription>Check your package, then tell us who's paying so we can set up your account.</DialogDescription>
            </DialogHeader>

            <PlanSummary plan={plan} quote={quote} />
            {choices.length > 1 ? <MethodChoice choices={choices} chosen={method} onChoose={setPicked} /> : null}
            <NextSteps method={method} providerName={providerName} box={needsMac(watch("lineType"))} />

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
              <form noValidate onSubmit={onSubmit} aria-label="Your details" className="mt-6 flex flex-col gap-5">
                <div className="grid gap-5 sm:grid-cols-2">
                  <FormField id={fieldId("name")} label="Full Name" required error={errors.name?.message} className="sm:col-span-2">
                    <Input id={fieldId("name")} autoComplete="name" aria-required="true" {...aria("name")} {...register("name")} />
                  </FormField>
                  <FormField
                    id={fieldId("whatsapp")}
                    label="WhatsApp Number"
                    required
                    error={errors.whatsapp?.message}
                    hint={LOGIN_HINTS[loginChannel].whatsapp}
                  >
                    <Input
                      id={fieldId("whatsapp")}
                      type="tel"
                      inputMode="tel"
                      autoComplete="tel"
                      placeholder="+27 XX XXX XXXX"
                      aria-required="true"
                      {...aria("whatsapp", true)}
                      {...register("whatsapp")}
                    />
                  </FormField>
                  <FormField
                    id={fieldId("email")}
                    label="E-mail Address (optional)"
                    error={errors.email?.message}
                    hint={LOGIN_HINTS[loginChannel].email}
                  >
                    <Input
                      id={fieldId("email")}
                      type="email"
                      inputMode="email"
                      autoComplete="email"
                      {...aria("email", true)}
                      {...register("email")}
                    />
                  </FormField>
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

                {askCode && identity ? (
                  <IdentityStep
                    answer={identity.answer}
                    error={errors.verificationCode?.message}
                    aria={aria("verificationCode", true)}
                    field={register("verificationCode")}
                  />
                ) : (
                  <div className="flex flex-col items-start gap-1">
                    <Button type="button" variant="ghost" size="sm" className="px-1" onClick={askForCode} disabled={asking || isSubmitting}>
                      {asking ? <Loader2 aria-hidden="true" className="animate-spin" /> : <KeyRound aria-hidden="true" />}
                      {PAY_REVIEW_MESSAGES.returning}
                    </Button>
                    <p className="text-xs text-ink-subtle">{PAY_REVIEW_MESSAGES.returningHint}</p>
                  </div>
                )}

                <ExtrasSection
                  register={register}
                  aria={aria}
                  errors={errors}
                  quote={quote}
                  onApply={async () => {
                    const code = getValues("coupon").trim();
                    clearErrors("coupon");
                    setQuote(null);
                    if (!code) return;
                    const answer = await checkCoupon({ packageId: plan.packageId, coupon: code, whatsapp: getValues("whatsapp") });
                    if (answer.ok) setQuote(answer.quote);
                    else setError("coupon", { type: "server", message: answer.message }, { shouldFocus: true });
                  }}
                />

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

                {renewal ? (
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
                      {renewal}
                    </span>
                  </CheckboxField>
                ) : null}

                {method === "card" && choices.length === 0 ? (
                  <p className="flex items-center gap-2 text-xs text-ink-subtle" data-testid="card-only-note">
                    <CreditCard aria-hidden="true" className="size-3.5 shrink-0" />
                    {PAY_REVIEW_MESSAGES.cardOnly}
                  </p>
                ) : null}
                {testCheckout && (method === "card" || method === "both") ? (
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
                      {askCode && !isSubmitting ? "Sign in and pay" : submitLabel(method, isSubmitting, providerName)}
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

/** The same contact as the server is asked about: the schema's trimmed values. */
function normalisedKey(typed: string): string {
  const [whatsapp = "", email = ""] = typed.split("|");
  return `${whatsapp.trim()}|${email.trim()}`;
}

/** Asks the server for a code to the account's contacts, if there is one; a refusal as field messages (or a toast). */
async function identify(
  payer: Pick<PayerDevice, "whatsapp" | "email">,
): Promise<{ ok: true; answer: IdentifyResponse } | { ok: false; fields: [PayerField, string][] }> {
  try {
    return { ok: true, answer: await identifyPayer({ whatsapp: payer.whatsapp, email: payer.email }) };
  } catch (error) {
    // Asked too often from here: said at the number, not as a payment failure; paying goes on as a new customer.
    if (error instanceof ApiError && error.status === 429) {
      return { ok: false, fields: [["whatsapp", error.message || "Too many requests. Please wait a minute and try again."]] };
    }
    if (error instanceof ApiError && error.status === 400) {
      const fields = PAYER_FIELDS.filter((name) => error.fields[name]).map((name) => [name, error.fields[name]] as [PayerField, string]);
      if (fields.length) return { ok: false, fields };
    }
    toast.error(PAYMENT_MESSAGES.errorTitle, {
      description: error instanceof ApiError && error.status > 0 && error.message ? error.message : PAYMENT_MESSAGES.unexpected,
    });
    return { ok: false, fields: [] };
  }
}

/** "If this number has an account with us, we've sent a code": the code, the WhatsApp way, or on as a new customer. */
function IdentityStep({
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
  // The code is what the payer does next: the cursor waits there.
  useEffect(() => document.getElementById(fieldId("verificationCode"))?.focus(), []);
  return (
    <section aria-labelledby="payer-identity-title" className="rounded-xl bg-accent/10 p-4 ring-1 ring-accent/30">
      <h3 id="payer-identity-title" className="text-sm font-semibold text-ink">
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

/** The EFT details in place of the form. Focus moves here from the form's button, which is gone. */
function EftStep({ eft, plan, onClose }: { eft: EftResponse; plan: PlanViewModel; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} tabIndex={-1} className="focus:outline-none">
      <DialogHeader>
        <DialogTitle>Pay by EFT</DialogTitle>
        <DialogDescription>Your reference and our bank details for {plan.period}.</DialogDescription>
      </DialogHeader>
      <EftDetails eft={eft} afterPayment={PAY_REVIEW_MESSAGES.eftAfter} />
      <DialogFooter>
        <Button onClick={onClose}>Done</Button>
      </DialogFooter>
    </div>
  );
}

function submitLabel(method: Method | undefined, busy: boolean, providerName?: string): string {
  if (method === undefined) return "Checking payment options...";
  if (method === "eft") return busy ? "Getting EFT details..." : "Get EFT details";
  if (providerName) return busy ? `Taking you to ${providerName}...` : `Continue to ${providerName}`;
  return busy ? "Creating payment link..." : "Continue to payment";
}

/** The ways to pay, one to pick (a radio group): card, each provider the owner turned on, EFT. */
function MethodChoice({
  choices,
  chosen,
  onChoose,
}: {
  choices: { id: Method; name: string; text: string; mark?: string }[];
  chosen: Method | undefined;
  onChoose: (method: Method) => void;
}) {
  return (
    <fieldset className="mt-5" data-testid="pay-methods">
      <legend className="text-sm font-semibold text-ink">How would you like to pay?</legend>
      <div className="mt-3 grid gap-2 sm:grid-cols-2">
        {choices.map((choice) => (
          <label
            key={choice.id}
            className={cn(
              "flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border p-3 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent-ink/40",
              chosen === choice.id ? "border-accent bg-accent/10" : "border-line bg-surface-raised hover:border-line-strong",
            )}
          >
            <input
              type="radio"
              name="pay-method"
              value={choice.id}
              checked={chosen === choice.id}
              onChange={() => onChoose(choice.id)}
              className="mt-1 size-4 accent-[var(--color-accent)]"
            />
            <PaymentMark id={choice.id as PaymentMarkId} text={choice.mark} className="mt-0.5" />
            <span className="flex flex-col gap-0.5">
              <span className="font-semibold text-ink">{choice.name}</span>
              <span className="text-sm text-ink-muted">{choice.text}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function BackButton({ onBack, onClose, disabled }: { onBack?: () => void; onClose: () => void; disabled?: boolean }) {
  return onBack ? (
    <Button variant="ghost" onClick={onBack} disabled={disabled}>
      <ArrowLeft aria-hidden="true" />
      Back
    </Button>
  ) : (
    <Button variant="ghost" onClick={onClose} disabled={disabled}>
      Cancel
    </Button>
  );
}

/**
 * A coupon code, and the company details a tax invoice needs: folded away, since most people
 * need neither. The coupon is checked (and priced) by the server when Apply is pressed, and again
 * when the payment is made.
 */
function ExtrasSection({
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

/** The package and the price the visitor will pay: a special's price with the original struck through, a coupon's too. */
function PlanSummary({ plan, quote }: { plan: PlanViewModel; quote: CouponQuote | null }) {
  return (
    <div
      className="flex flex-wrap items-end justify-between gap-x-6 gap-y-3 rounded-xl border border-line bg-surface-raised p-4"
      data-testid="pay-review-plan"
    >
      <div className="min-w-0">
        <p className="text-xs font-semibold tracking-wide text-ink-subtle uppercase">Package</p>
        <p className="text-lg font-semibold text-ink">{plan.period}</p>
        {plan.duration.toLowerCase() !== plan.period.toLowerCase() ? <p className="text-sm text-ink-muted">{plan.duration}</p> : null}
      </div>
      <div className="text-right">
        <p className="text-xs font-semibold tracking-wide text-ink-subtle uppercase">You pay</p>
        <p className="flex flex-wrap items-baseline justify-end gap-x-2">
          {plan.originalPrice !== undefined || quote ? (
            <span className="tabular text-ink-subtle">
              <span className="sr-only">Was </span>
              <s>{formatRand(quote ? quote.list_price : (plan.originalPrice as number))}</s>
              <span className="sr-only">, now </span>
            </span>
          ) : null}
          <span className="tabular text-2xl font-extrabold tracking-tight text-ink" data-testid="pay-review-price">
            {quote ? formatRand(quote.price) : priceLabel(plan)}
          </span>
        </p>
        {quote ? (
          <p className="text-sm font-semibold text-ok">
            Coupon {quote.code}: {formatRand(quote.discount)} off
          </p>
        ) : null}
        {plan.hasSpecial && plan.note ? <p className="text-sm font-semibold text-special-ink">{plan.note}</p> : null}
      </div>
    </div>
  );
}

const STEPS: Record<"card" | "eft" | "both", string[]> = {
  card: [
    "You pay by card on the secure payment page.",
    "We confirm the payment.",
    "Your account is created and your client portal login is sent to your WhatsApp (and e-mail if given).",
    "We set up your line and send your streaming login details.",
  ],
  eft: [
    "We show you our bank details and your payment reference.",
    "You pay by EFT with that reference.",
    "When the payment reflects, we activate your account and send your client portal login to your WhatsApp (and e-mail if given).",
    "We set up your line and send your streaming login details.",
  ],
  both: [
    "Pay by card on the secure payment page, or get our bank details and your reference to pay by EFT.",
    "We confirm the payment: a card at once, an EFT when it reflects.",
    "Your account is created and your client portal login is sent to your WhatsApp (and e-mail if given).",
    "We set up your line and send your streaming login details.",
  ],
};

/** The last step for a box: it has no login, it connects by its MAC (the message says how to set it up). */
const BOX_LAST_STEP = "We set up your line for your box's MAC address and send you how to connect the box.";

function NextSteps({ method, providerName, box }: { method: Method | undefined; providerName?: string; box: boolean }) {
  if (method === "none") return null;
  const base = STEPS[method === "eft" || method === "both" ? method : "card"];
  const steps = base.map((step, i) =>
    i === 0 && providerName ? `You pay on ${providerName}'s secure payment page.` : box && i === base.length - 1 ? BOX_LAST_STEP : step,
  );
  return (
    <section aria-labelledby="pay-review-steps" className="mt-5">
      <h3 id="pay-review-steps" className="text-sm font-semibold text-ink">
        What happens next
      </h3>
      <ol className="mt-3 flex flex-col gap-2.5 text-sm text-ink-muted">
        {steps.map((step, i) => (
          <li key={step} className="flex gap-3">
            <span
              aria-hidden="true"
              className={cn(
                "flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-bold",
                i === 0 ? "bg-accent text-white" : "bg-surface-overlay text-ink",
              )}
            >
              {i + 1}
            </span>
            <span className="pt-0.5">{step}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
