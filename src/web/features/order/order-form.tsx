// The order form (spec §2, §4, §5): Full Name, E-mail Address, WhatsApp Number, Select Package,
// Duration, Device, Internet Platform (with 'Please specify' for other) and Internet Speed.
// Only the first three are enforced (the shared orderFormSchema); Select Package and Internet
// Platform carry an asterisk but are optional, as the spec has them. Before the button: the
// order summary (ECT Act s43) and, for paid plans, consent to start at once (s44). Sending:
// 'Getting You Started...'; success clears the form and opens WhatsApp; failure keeps it.
import { CheckCircle2, MessageCircle } from "lucide-react";
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type FieldErrors, type Resolver, useForm, useWatch } from "react-hook-form";
import { Link, useSearchParams } from "react-router";
import { DEVICES, FREE_TRIAL_DURATION, FREE_TRIAL_DURATION_LABEL, INTERNET_PLATFORMS } from "@/shared/options";
import type { OrderFormInput, OrderForm as OrderFormOutput } from "@/shared/schemas";
import type { TrialStarted } from "@/shared/trial-schemas";
import { isValidWhatsAppLink } from "@/shared/whatsapp";
import { DeviceLineField, deviceRequest } from "@/web/components/device-line-field";
import { CheckboxField, FormField, fieldAria } from "@/web/components/form-field";
import { PopiaNotice } from "@/web/components/popia-notice";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { ApiError } from "@/web/lib/api";
import { usePackages } from "@/web/lib/queries/packages";
import { useSettings } from "@/web/lib/queries/settings";
import { useSpecials } from "@/web/lib/queries/specials";
import { useTrialUnavailable } from "@/web/lib/queries/trial-availability";
import { scrollToSection } from "@/web/lib/scroll";
import { toast } from "@/web/lib/toast";
import { isTrialAnswer, MISSING_SUCCESS_MESSAGE, newIdempotencyKey, type OrderRequest, useCreateOrder } from "./api/create-order";
import { clearDraft, EMPTY_DRAFT, loadDraft, type OrderDraft, saveDraft } from "./order-draft";
import { useOrderEvents } from "./order-events";
import { chosenPackage, type OrderChoices, orderChoices, type PackageChoice, priceText, resolveDuration } from "./order-options";

export type OrderFormValues = OrderDraft & { immediateStartConsent: boolean };

// The code-entry step (and the schemas it validates with) loads only once a trial has started: it
// is most of the landing's form weight, and most visitors never reach it (docs/performance.md).
const InstantTrial = lazy(() => import("./instant-trial").then((m) => ({ default: m.InstantTrial })));

const EMPTY_VALUES: OrderFormValues = { ...EMPTY_DRAFT, immediateStartConsent: false };

export const ORDER_MESSAGES = {
  successTitle: "Order Submitted Successfully!",
  successDescription: "Your order has been saved and will appear in the admin panel. WhatsApp is opening for immediate assistance.",
  failureTitle: "Submission Error",
  failureDescription: "There was an error submitting your order. Please try again or contact us directly.",
  invalidWhatsApp: "We couldn't open WhatsApp from here. Your order is saved, and we'll contact you shortly.",
  consent: "Please confirm that your service may start as soon as it's paid for.",
  sending: "Getting You Started...",
} as const;

const DEFAULT_TRIAL_RULES =
  "One free trial per person: one per WhatsApp number and e-mail address. It lasts 24 hours, needs no card, and isn't available on sport event days.";

/** The form's fields that the server may name in a 400 or 409 (anything else is shown in the toast only). */
const SERVER_FIELDS = new Set<keyof OrderFormValues>([
  "name",
  "email",
  "whatsapp",
  "package",
  "duration",
  "device",
  "internetPlatform",
  "otherPlatform",
  "internetSpeed",
  "lineType",
  "mac",
]);

/** A paid plan is chosen: the ECT s44 consent is then required. */
function isPaid(choice: PackageChoice | null): choice is PackageChoice & { price: number } {
  return choice !== null && !choice.isFree;
}

// The shared schema and zod arrive when the visitor first focuses the form (or submits), not
// with the page: evaluating them is the costliest part of mounting this section.
type SchemaResolver = Resolver<OrderFormInput, unknown, OrderFormOutput>;
let schemaResolver: Promise<SchemaResolver> | null = null;
export function loadOrderSchema(): Promise<SchemaResolver> {
  schemaResolver ??= Promise.all([import("@hookform/resolvers/zod"), import("@/shared/schemas")]).then(
    ([{ zodResolver }, { orderFormSchema }]) => zodResolver(orderFormSchema) as SchemaResolver,
  );
  // A failed load (offline) is tried again on the next attempt.
  schemaResolver.catch(() => {
    schemaResolver = null;
  });
  return schemaResolver;
}

/** The shared schema's rules, plus the consent line for paid plans (read from `choicesRef` at validation time). */
function orderResolver(choicesRef: { current: OrderChoices }): Resolver<OrderFormValues> {
  return async (values, context, options) => {
    let resolve: SchemaResolver;
    try {
      resolve = await loadOrderSchema();
    } catch {
      // Nothing is sent and nothing typed is lost: the visitor can try again.
      toast.error(ORDER_MESSAGES.failureTitle, { description: "Could not reach the server. Check your connection and try again." });
      return { values: {}, errors: { root: { type: "network", message: "Could not reach the server." } } as FieldErrors<OrderFormValues> };
    }
    const result = await resolve(values as OrderFormInput, context, options as unknown as Parameters<SchemaResolver>[2]);
    const errors = { ...result.errors } as FieldErrors<OrderFormValues>;
    if (isPaid(chosenPackage(values, choicesRef.current)) && !values.immediateStartConsent) {
      errors.immediateStartConsent = { type: "required", message: ORDER_MESSAGES.consent };
    }
    if (Object.keys(errors).length > 0) return { values: {}, errors };
    const parsed = result.values as OrderFormOutput;
    return { values: { ...values, ...parsed, immediateStartConsent: values.immediateStartConsent }, errors: {} };
  };
}

/** Spec §8: the server's message, 'Failed to submit order' without a success flag, else the default. */
function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.code && error.message) return error.message;
  if (error instanceof Error && error.message === MISSING_SUCCESS_MESSAGE) return error.message;
  return ORDER_MESSAGES.failureDescription;
}

/** Spec §5: a link that is not WhatsApp's raises an alert; otherwise a new tab. */
function openWhatsApp(url: string): void {
  if (!isValidWhatsAppLink(url)) {
    window.alert(ORDER_MESSAGES.invalidWhatsApp);
    return;
  }
  window.open(url, "_blank", "noopener,noreferrer");
}

export function OrderForm() {
  const packagesQuery = usePackages();
  const specialsQuery = useSpecials();
  const { settings } = useSettings();
  const packagesReady = !packagesQuery.isPending;
  const choices = useMemo(
    () => orderChoices(packagesQuery.isPending ? null : (packagesQuery.data ?? []), specialsQuery.data ?? [], packagesQuery.isError),
    [packagesQuery.isPending, packagesQuery.data, packagesQuery.isError, specialsQuery.data],
  );
  const choicesRef = useRef(choices);
  choicesRef.current = choices;
  // A sport event day: the trial is offered nowhere in the form, and asking for it selects nothing.
  const noTrial = useTrialUnavailable();
  const noTrialRef = useRef(noTrial);
  noTrialRef.current = noTrial;

  const [searchParams] = useSearchParams();
  const [initialValues] = useState<OrderFormValues>(() => {
    const values: OrderFormValues = { ...loadDraft(), immediateStartConsent: false };
    const speed = searchParams.get("speed");
    if (speed) values.internetSpeed = speed.slice(0, 40);
    return values;
  });
  const [resolver] = useState(() => orderResolver(choicesRef));
  const form = useForm<OrderFormValues>({ defaultValues: initialValues, resolver, mode: "onSubmit", reValidateMode: "onChange" });
  const { register, setValue, getValues, setError, reset, control, formState, handleSubmit } = form;
  const { errors, isSubmitting, isSubmitted } = formState;

  // Keep the draft as the visitor types.
  useEffect(() => {
    const subscription = form.watch((values) => saveDraft(values));
    return () => subscription.unsubscribe();
  }, [form]);

  // ---- duration and package kept together -------------------------------------------------
  const pendingDuration = useRef<string | null>(searchParams.get("duration"));
  const set = useCallback(
    (name: keyof OrderFormValues, value: string) => setValue(name, value, { shouldDirty: true, shouldValidate: isSubmitted }),
    [setValue, isSubmitted],
  );
  const packagesPending = useRef(!packagesReady);
  packagesPending.current = !packagesReady;
  const applyDuration = useCallback(
    (requested: string) => {
      const resolved = resolveDuration(requested, choicesRef.current);
      // Asked for before the packages arrived: tried again once they do.
      pendingDuration.current = !resolved && packagesPending.current ? requested : null;
      if (!resolved || (resolved.duration === FREE_TRIAL_DURATION && noTrialRef.current)) return;
      set("duration", resolved.duration);
      if (resolved.package !== null) set("package", resolved.package);
    },
    [set],
  );

  useEffect(() => {
    if (!packagesReady) return;
    const pending = pendingDuration.current;
    pendingDuration.current = null;
    if (pending) applyDuration(pending);
    // A package or duration from a draft or an older price list that is no longer offered.
    const { package: pkg, duration } = getValues();
    if (pkg && !choices.packages.some((c) => c.value === pkg)) setValue("package", "");
    if (duration && !choices.durations.some((d) => d.value === duration)) setValue("duration", "");
  }, [packagesReady, choices, applyDuration, getValues, setValue]);

  useOrderEvents({
    onDuration: applyDuration,
    onSpeed: (speed) => set("internetSpeed", speed.slice(0, 40)),
  });

  const onPackageChange = (value: string) => {
    const choice = choices.packages.find((c) => c.value === value);
    if (choice) set("duration", choice.duration);
  };
  const onDurationChange = (value: string) => {
    if (!value) return;
    const current = choices.packages.find((c) => c.value === getValues("package"));
    const resolved = resolveDuration(value, choices);
    if (current && resolved?.package === current.value) return;
    if (current?.duration === value) return;
    set("package", resolved?.package ?? "");
  };

  // ---- what the summary shows ----------------------------------------------------------------
  const [watchedPackage, watchedDuration, platform, lineType, mac] = useWatch({
    control,
    name: ["package", "duration", "internetPlatform", "lineType", "mac"],
  });
  const chosen = chosenPackage({ package: watchedPackage, duration: watchedDuration }, choices);
  const isTrial = watchedDuration === FREE_TRIAL_DURATION || chosen?.isFree === true;
  const paid = !isTrial && isPaid(chosen);

  // ---- sending -------------------------------------------------------------------------------
  const mutation = useCreateOrder();
  // One key per filled-in form: a retry of the same form reuses it, a changed form gets a new one.
  const attempt = useRef<{ fingerprint: string; key: string } | null>(null);
  const [sentUrl, setSentUrl] = useState<string | null>(null);
  // Instant mode (issue 27): the free trial waiting for its code; the code step replaces the form.
  const [trialStarted, setTrialStarted] = useState<TrialStarted | null>(null);

  const onSubmit = handleSubmit(async (values) => {
    const choice = chosenPackage(values, choicesRef.current);
    const trial = values.duration === FREE_TRIAL_DURATION || choice?.isFree === true;
    const body: OrderRequest = {
      name: values.name,
      email: values.email,
      whatsapp: values.whatsapp,
      package: values.package,
      duration: values.duration || (trial ? FREE_TRIAL_DURATION : (choice?.duration ?? "")),
      device: values.device as OrderRequest["device"],
      internetPlatform: values.internetPlatform as OrderRequest["internetPlatform"],
      otherPlatform: values.internetPlatform === "other" ? values.otherPlatform : "",
      internetSpeed: values.internetSpeed,
      ...deviceRequest(values),
      formType: trial ? "free-trial" : "order",
      marketingOptIn: values.marketingOptIn,
      ...(!trial && isPaid(choice) ? { immediateStartConsent: values.immediateStartConsent, shownPrice: priceText(choice.price) } : {}),
    };
    const fingerprint = JSON.stringify(body);
    if (attempt.current?.fingerprint !== fingerprint) attempt.current = { fingerprint, key: newIdempotencyKey() };
    try {
      const answer = await mutation.mutateAsync({ body, idempotencyKey: attempt.current.key });
      attempt.current = null;
      if (isTrialAnswer(answer)) {
        reset(EMPTY_VALUES);
        clearDraft();
        setTrialStarted({ trialId: answer.trialId, sentTo: answer.sentTo });
        return;
      }
      openWhatsApp(answer.whatsappUrl);
      toast.success(ORDER_MESSAGES.successTitle, { description: ORDER_MESSAGES.successDescription });
      reset(EMPTY_VALUES);
      clearDraft();
      setSentUrl(answer.whatsappUrl);
    } catch (error) {
      console.error(error);
      toast.error(ORDER_MESSAGES.failureTitle, { description: failureMessage(error) });
      if (error instanceof ApiError) {
        for (const [field, message] of Object.entries(error.fields)) {
          if (SERVER_FIELDS.has(field as keyof OrderFormValues)) setError(field as keyof OrderFormValues, { type: "server", message });
        }
      }
    }
  });

  const aria = (name: keyof OrderFormValues, hint = false) => fieldAria(`order-${name}`, { error: errors[name]?.message, hint });

  if (trialStarted) {
    return (
      <Suspense fallback={<p className="text-sm text-ink-muted">Opening your free trial...</p>}>
        <InstantTrial trial={trialStarted} onClose={() => setTrialStarted(null)} />
      </Suspense>
    );
  }

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      onFocus={() => void loadOrderSchema().catch(() => undefined)}
      aria-label="Order form"
      className="flex flex-col gap-8"
    >
      <Group legend="Your details">
        <FormField id="order-name" label="Full Name" required error={errors.name?.message} className="sm:col-span-2">
          <Input id="order-name" autoComplete="name" aria-required="true" {...aria("name")} {...register("name")} />
        </FormField>
        <FormField id="order-email" label="E-mail Address" required error={errors.email?.message}>
          <Input
            id="order-email"
            type="email"
            inputMode="email"
            autoComplete="email"
            aria-required="true"
            {...aria("email")}
            {...register("email")}
          />
        </FormField>
        <FormField id="order-whatsapp" label="WhatsApp Number" required error={errors.whatsapp?.message}>
          <Input
            id="order-whatsapp"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="+27 XX XXX XXXX"
            aria-required="true"
            {...aria("whatsapp")}
            {...register("whatsapp")}
          />
        </FormField>
      </Group>

      <Group legend="Your package">
        <FormField id="order-package" label="Select Package" asterisk error={errors.package?.message}>
          <Select id="order-package" {...aria("package")} {...register("package", { onChange: (e) => onPackageChange(e.target.value) })}>
            <option value="">Choose a package</option>
            {choices.packages.map((c) => (
              <option key={c.value} value={c.value} disabled={c.isFree && noTrial !== null}>
                {c.isFree && noTrial ? `${c.label} (not available today)` : c.label}
              </option>
            ))}
            {packagesReady ? null : (
              <option value="__loading" disabled>
                Loading packages...
              </option>
            )}
          </Select>
        </FormField>
        <FormField id="order-duration" label="Duration" error={errors.duration?.message}>
          <Select
            id="order-duration"
            {...aria("duration")}
            {...register("duration", { onChange: (e) => onDurationChange(e.target.value) })}
          >
            <option value="">Choose a duration</option>
            {choices.durations.map((d) => (
              <option key={d.value} value={d.value} disabled={d.value === FREE_TRIAL_DURATION && noTrial !== null}>
                {d.value === FREE_TRIAL_DURATION && noTrial ? `${d.label} (not available today)` : d.label}
              </option>
            ))}
          </Select>
        </FormField>
        {noTrial ? (
          <p role="status" className="text-sm font-medium text-warn sm:col-span-2" data-testid="no-trial-today">
            {noTrial.text}
          </p>
        ) : null}
      </Group>

      <Group legend="Your setup">
        <DeviceLineField
          idPrefix="order"
          lineType={lineType}
          mac={mac}
          typeField={register("lineType")}
          macField={register("mac")}
          typeError={errors.lineType?.message}
          macError={errors.mac?.message}
          className="sm:col-span-2"
        />
        <FormField id="order-device" label="Device" error={errors.device?.message}>
          <Select id="order-device" {...aria("device")} {...register("device")}>
            <option value="">Choose your device</option>
            {DEVICES.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id="order-internetPlatform" label="Internet Platform" asterisk error={errors.internetPlatform?.message}>
          <Select id="order-internetPlatform" {...aria("internetPlatform")} {...register("internetPlatform")}>
            <option value="">Choose your internet</option>
            {INTERNET_PLATFORMS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </Select>
        </FormField>
        {platform === "other" ? (
          <FormField
            id="order-otherPlatform"
            label="Please specify"
            required
            error={errors.otherPlatform?.message}
            className="sm:col-span-2"
          >
            <Input
              id="order-otherPlatform"
              placeholder="e.g. Starlink, ADSL"
              aria-required="true"
              {...aria("otherPlatform")}
              {...register("otherPlatform")}
            />
          </FormField>
        ) : null}
        <FormField
          id="order-internetSpeed"
          label="Internet Speed"
          error={errors.internetSpeed?.message}
          className="sm:col-span-2"
          hint={
            <>
              Not sure?{" "}
              <Link
                to="/stream-test"
                onClick={(event) => {
                  if (scrollToSection("stream-test")) event.preventDefault();
                }}
                className="font-medium text-accent-ink underline underline-offset-2 hover:text-ink"
              >
                Run the stream test
              </Link>{" "}
              and use its result.
            </>
          }
        >
          <Input
            id="order-internetSpeed"
            placeholder="e.g. 50 Mbps"
            autoComplete="off"
            {...aria("internetSpeed", true)}
            {...register("internetSpeed")}
          />
        </FormField>
      </Group>

      <OrderSummary
        chosen={chosen}
        duration={watchedDuration}
        isTrial={isTrial}
        vatNote={settings.vat_note?.trim() || ""}
        trialRules={settings.free_trial_rules?.trim() || DEFAULT_TRIAL_RULES}
      />

      <div className="flex flex-col gap-3">
        {paid ? (
          <CheckboxField
            id="order-immediateStartConsent"
            error={errors.immediateStartConsent?.message}
            required
            input={
              <input
                id="order-immediateStartConsent"
                type="checkbox"
                aria-required="true"
                {...aria("immediateStartConsent")}
                {...register("immediateStartConsent")}
                className="mt-0.5 size-5 shrink-0 accent-accent"
              />
            }
          >
            I ask for my service to start as soon as my payment is received. I understand that once it has started I can't cancel it under
            the 7-day cooling-off period of the ECT Act (section 44). See our{" "}
            <Link to="/refund-policy" className="font-medium text-accent-ink underline underline-offset-2 hover:text-ink">
              Refund Policy
            </Link>
            .
          </CheckboxField>
        ) : null}
        <CheckboxField
          id="order-marketingOptIn"
          input={
            <input
              id="order-marketingOptIn"
              type="checkbox"
              {...register("marketingOptIn")}
              className="mt-0.5 size-5 shrink-0 accent-accent"
            />
          }
        >
          Send me specials and offers on WhatsApp or e-mail (optional). You can stop them at any time.
        </CheckboxField>
      </div>

      <PopiaNotice
        collected="your name, e-mail address, WhatsApp number and the details of your setup"
        purpose="set up your order or free trial and contact you about it"
        required="Your name, e-mail address and WhatsApp number are required; the rest helps us set you up faster."
      />

      <Button type="submit" size="lg" disabled={isSubmitting} aria-disabled={isSubmitting} className="w-full sm:w-auto sm:self-start">
        {isSubmitting ? ORDER_MESSAGES.sending : isTrial ? "Start My Free Trial" : "Place My Order"}
      </Button>
      {/* Beside the button, where the visitor is looking; gone once they start a new order. */}
      {sentUrl && !formState.isDirty ? <SentNote url={sentUrl} /> : null}
    </form>
  );
}

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-4">
      <legend className="mb-4 text-sm font-semibold tracking-widest text-ink-subtle uppercase">{legend}</legend>
      <div className="grid gap-5 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}

interface OrderSummaryProps {
  chosen: PackageChoice | null;
  duration: string;
  isTrial: boolean;
  vatNote: string;
  trialRules: string;
}

/** ECT Act s43: what is being ordered, for how long and at what price, updated as they choose. */
function OrderSummary({ chosen, duration, isTrial, vatNote, trialRules }: OrderSummaryProps) {
  const shown = duration || chosen?.duration || "";
  const durationText = shown === FREE_TRIAL_DURATION ? FREE_TRIAL_DURATION_LABEL : shown;
  const notChosen = <span className="text-ink-subtle">Not chosen yet</span>;
  return (
    <section aria-labelledby="order-summary-heading" className="rounded-2xl bg-surface-raised p-5 ring-1 ring-line">
      <p id="order-summary-heading" className="text-sm font-semibold tracking-widest text-ink-subtle uppercase">
        Your order
      </p>
      <dl
        className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm [overflow-wrap:anywhere] sm:gap-x-6"
        aria-live="polite"
        data-testid="order-summary"
      >
        <dt className="text-ink-muted">Package</dt>
        <dd className="text-right font-medium text-ink">{chosen ? chosen.value : notChosen}</dd>
        <dt className="text-ink-muted">Duration</dt>
        <dd className="text-right font-medium text-ink">{durationText || notChosen}</dd>
        <dt className="text-ink-muted">Price</dt>
        <dd className="tabular text-right text-lg font-bold text-ink">
          {chosen ? (
            <>
              {chosen.originalPrice !== undefined ? (
                <s className="mr-2 text-sm font-normal text-ink-subtle">{priceText(chosen.originalPrice)}</s>
              ) : null}
              {priceText(chosen.price)}
            </>
          ) : isTrial ? (
            "FREE"
          ) : (
            <span className="text-sm font-normal text-ink-subtle">Confirmed on WhatsApp</span>
          )}
        </dd>
      </dl>
      <p className="mt-3 border-t border-line pt-3 text-sm text-ink-muted">
        {isTrial
          ? trialRules
          : `Nothing is charged now: we confirm your order on WhatsApp and send you the payment details.${vatNote ? ` ${vatNote}` : ""}`}
      </p>
    </section>
  );
}

function SentNote({ url }: { url: string }) {
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-2xl bg-ok/10 p-5 ring-1 ring-ok/30 sm:flex-row sm:items-center sm:justify-between"
    >
      <p className="flex items-start gap-2 text-ink">
        <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-ok" />
        Thank you, your order is in. Send the WhatsApp message that opened so we can set you up.
      </p>
      {isValidWhatsAppLink(url) ? (
        <a href={url} target="_blank" rel="noopener noreferrer" className={buttonClasses({ variant: "secondary", size: "sm" })}>
          <MessageCircle aria-hidden="true" />
          Open WhatsApp
        </a>
      ) : null}
    </div>
  );
}
