// The order form run by react-hook-form: loaded when the visitor first touches the form (or an
// order event or a submit asks for it), so a visitor who only reads the landing never downloads
// the form library (docs/performance.md). It draws nothing itself: it takes over the fields the
// page already shows (OrderFormView), starting from what they hold, and hands the page its
// driver on every render.
import { type ChangeEvent, memo, type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { type FieldErrors, type Resolver, useForm, useWatch } from "react-hook-form";
import { FREE_TRIAL_DURATION } from "@/shared/options";
import type { OrderFormInput, OrderForm as OrderFormOutput } from "@/shared/schemas";
import type { TrialStarted } from "@/shared/trial-schemas";
import { isValidWhatsAppLink } from "@/shared/whatsapp";
import { deviceRequest } from "@/web/components/device-line-field";
import { ApiError } from "@/web/lib/api";
import { toast } from "@/web/lib/toast";
import { isTrialAnswer, MISSING_SUCCESS_MESSAGE, newIdempotencyKey, type OrderRequest, useCreateOrder } from "./api/create-order";
import { clearDraft, saveDraft } from "./order-draft";
import { EMPTY_VALUES, loadOrderSchema, type SchemaResolver } from "./order-form";
import {
  type FormDriver,
  isPaid,
  ORDER_MESSAGES,
  type OrderField,
  type OrderFormValues,
  WATCHED,
  type WatchedValues,
} from "./order-form-view";
import { chosenPackage, type OrderChoices, priceText, resolveDuration } from "./order-options";

/** The form's fields that the server may name in a 400 or 409 (anything else is shown in the toast only). */
const SERVER_FIELDS = new Set<OrderField>([
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

/** What the page can ask of the running form beyond drawing it. */
export interface LiveDriver extends FormDriver {
  /** a selectDuration: the duration, and for a package's duration the package */
  applyDuration: (duration: string) => void;
  /** the stream test's 'Use this speed in my order' */
  setSpeed: (speed: string) => void;
  /** a select changed before this form took over: its linked field follows, as if changed now */
  replayChange: (name: OrderField, value: string) => void;
  /** the free trial waiting for its code (instant mode) */
  trialStarted: TrialStarted | null;
  closeTrial: () => void;
}

export interface OrderFormLiveProps {
  form: RefObject<HTMLFormElement | null>;
  /** the values the page started from (draft, ?speed=), for fields not on screen */
  initialValues: OrderFormValues;
  /** a ?duration= to apply once the packages are here */
  initialDuration: string | null;
  choices: OrderChoices;
  packagesReady: boolean;
  noTrial: boolean;
  onDriver: (driver: LiveDriver) => void;
}

/** What the fields hold now: what was typed before this form took over is where it starts. */
function valuesOnScreen(form: HTMLFormElement | null, initial: OrderFormValues): OrderFormValues {
  const values = { ...initial } as Record<OrderField, string | boolean>;
  if (!form) return values as OrderFormValues;
  for (const name of Object.keys(EMPTY_VALUES) as OrderField[]) {
    const element = form.elements.namedItem(name);
    if (element instanceof RadioNodeList) values[name] = element.value;
    else if (element instanceof HTMLInputElement && element.type === "checkbox") values[name] = element.checked;
    else if (element instanceof HTMLSelectElement) {
      // A choice from the draft whose option has not arrived yet (the packages still loading) stays chosen.
      const shown = [...element.options].some((option) => option.value === initial[name]);
      values[name] = element.value || shown ? element.value : initial[name];
    } else if (element instanceof HTMLInputElement) values[name] = element.value;
  }
  return values as OrderFormValues;
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

function messages(errors: FieldErrors<OrderFormValues>): Partial<Record<OrderField, string>> {
  const out: Partial<Record<OrderField, string>> = {};
  for (const [name, error] of Object.entries(errors)) if (error?.message) out[name as OrderField] = String(error.message);
  return out;
}

/** Kept apart from the page's renders (memo): it renders when the form's own state changes. */
export const OrderFormLive = memo(function OrderFormLive({
  form: formElement,
  initialValues,
  initialDuration,
  choices,
  packagesReady,
  noTrial,
  onDriver,
}: OrderFormLiveProps) {
  const choicesRef = useRef(choices);
  choicesRef.current = choices;
  const noTrialRef = useRef(noTrial);
  noTrialRef.current = noTrial;

  const [defaultValues] = useState(() => valuesOnScreen(formElement.current, initialValues));
  const [resolver] = useState(() => orderResolver(choicesRef));
  const form = useForm<OrderFormValues>({ defaultValues, resolver, mode: "onSubmit", reValidateMode: "onChange" });
  const { register, setValue, getValues, setError, reset, control, formState, handleSubmit } = form;
  const { errors, isSubmitting, isSubmitted, isDirty } = formState;

  // Keep the draft as the visitor types.
  useEffect(() => {
    const subscription = form.watch((values) => saveDraft(values));
    return () => subscription.unsubscribe();
  }, [form]);

  // ---- duration and package kept together -------------------------------------------------
  const pendingDuration = useRef<string | null>(initialDuration);
  const set = useCallback(
    (name: OrderField, value: string) => setValue(name, value, { shouldDirty: true, shouldValidate: isSubmitted }),
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

  const onPackageChange = (value: string) => {
    const choice = choicesRef.current.packages.find((c) => c.value === value);
    if (choice) set("duration", choice.duration);
  };
  const onDurationChange = (value: string) => {
    if (!value) return;
    const current = choicesRef.current.packages.find((c) => c.value === getValues("package"));
    const resolved = resolveDuration(value, choicesRef.current);
    if (current && resolved?.package === current.value) return;
    if (current?.duration === value) return;
    set("package", resolved?.package ?? "");
  };

  const watched = useWatch({ control, name: WATCHED });
  const values = Object.fromEntries(WATCHED.map((name, i) => [name, watched[i] ?? ""])) as unknown as WatchedValues;

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
        setTrialStarted({ trialId: answer.trialId, sentTo: answer.sentTo, waLink: answer.waLink ?? null });
        return;
      }
      openWhatsApp(answer.whatsappUrl);
      toast.success(ORDER_MESSAGES.successTitle, { description: answer.notice ?? ORDER_MESSAGES.successDescription });
      reset(EMPTY_VALUES);
      clearDraft();
      setSentUrl(answer.whatsappUrl);
    } catch (error) {
      console.error(error);
      toast.error(ORDER_MESSAGES.failureTitle, { description: failureMessage(error) });
      if (error instanceof ApiError) {
        for (const [field, message] of Object.entries(error.fields)) {
          if (SERVER_FIELDS.has(field as OrderField)) setError(field as OrderField, { type: "server", message });
        }
      }
    }
  });

  // Between this form's first render (which read the fields) and the commit that hands them to
  // react-hook-form, the browser may run the visitor's typing: a render after a lazy load yields.
  // react-hook-form writes its values into each element it is given, so just before the first
  // element is given, a field that changed on screen since that read takes what it holds now
  // (a field this form set meanwhile, such as a ?duration=, keeps the form's value).
  const caughtUp = useRef(false);
  const catchUp = () => {
    caughtUp.current = true;
    const onScreen = valuesOnScreen(formElement.current, defaultValues);
    for (const name of Object.keys(onScreen) as OrderField[]) {
      if (onScreen[name] !== defaultValues[name]) setValue(name, onScreen[name], { shouldDirty: true });
    }
  };
  const field = (name: OrderField) => {
    const registration =
      name === "package"
        ? register(name, { onChange: (e: ChangeEvent<HTMLSelectElement>) => onPackageChange(e.target.value) })
        : name === "duration"
          ? register(name, { onChange: (e: ChangeEvent<HTMLSelectElement>) => onDurationChange(e.target.value) })
          : register(name);
    return {
      ...registration,
      ref: (element: HTMLInputElement | HTMLSelectElement | null) => {
        if (element && !caughtUp.current) catchUp();
        registration.ref(element);
      },
    };
  };

  const driver: LiveDriver = {
    field,
    values,
    errors: messages(errors),
    isSubmitting,
    onSubmit: (event) => void onSubmit(event),
    sentUrl: sentUrl && !isDirty ? sentUrl : null,
    applyDuration,
    setSpeed: (speed) => set("internetSpeed", speed.slice(0, 40)),
    replayChange: (name, value) => {
      if (name === "package") onPackageChange(value);
      if (name === "duration") onDurationChange(value);
    },
    trialStarted,
    closeTrial: () => setTrialStarted(null),
  };
  // The page draws the fields with this driver from its next render on.
  useLayoutEffect(() => onDriver(driver));
  return null;
});
