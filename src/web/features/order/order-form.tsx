// The order form (spec §2, §4, §5): Full Name, E-mail Address, WhatsApp Number, Select Package,
// Duration, Device, Internet Platform (with 'Please specify' for other) and Internet Speed.
// Only the first three are enforced (the shared orderFormSchema); Select Package and Internet
// Platform carry an asterisk but are optional, as the spec has them. Before the button: the
// order summary (ECT Act s43) and, for paid plans, consent to start at once (s44). Sending:
// 'Getting You Started...'; success clears the form and opens WhatsApp; failure keeps it.
//
// The fields show at once, with a draft restored; react-hook-form and the sending code
// (order-form-live.tsx) load when the visitor first focuses the form, submits it, or a pricing
// card or the stream test sends it a choice, and take over the same elements. Most visitors to
// the landing never touch the form, and that code is the landing's largest library after React
// (docs/performance.md).
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Resolver, UseFormRegisterReturn } from "react-hook-form";
import { useSearchParams } from "react-router";
import type { OrderFormInput, OrderForm as OrderFormOutput } from "@/shared/schemas";
import { ErrorBoundary } from "@/web/components/error-boundary";
import { usePackages } from "@/web/lib/queries/packages";
import { useSettings } from "@/web/lib/queries/settings";
import { useSpecials } from "@/web/lib/queries/specials";
import { useTrialUnavailable } from "@/web/lib/queries/trial-availability";
import { toast } from "@/web/lib/toast";
import { EMPTY_DRAFT, loadDraft } from "./order-draft";
import { useOrderEvents } from "./order-events";
import type { LiveDriver } from "./order-form-live";
import {
  type FormDriver,
  ORDER_MESSAGES,
  type OrderField,
  OrderFields,
  type OrderFormValues,
  WATCHED,
  type WatchedValues,
} from "./order-form-view";
import { orderChoices } from "./order-options";

export const EMPTY_VALUES: OrderFormValues = { ...EMPTY_DRAFT, immediateStartConsent: false };

// The code-entry step (and the schemas it validates with) loads only once a trial has started: it
// is most of the landing's form weight, and most visitors never reach it (docs/performance.md).
const InstantTrial = lazy(() => import("./instant-trial").then((m) => ({ default: m.InstantTrial })));

const loadLiveForm = () => import("./order-form-live").then((m) => ({ default: m.OrderFormLive }));

// The shared schema and zod arrive when the visitor first focuses the form (or submits), not
// with the page: evaluating them is the costliest part of mounting this section.
export type SchemaResolver = Resolver<OrderFormInput, unknown, OrderFormOutput>;
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

/** What happened before the form code arrived, for it to carry out when it takes over. */
interface Pending {
  submit: boolean;
  duration: string | null;
  speed: string | null;
  /** selects changed meanwhile, whose linked field (package ↔ duration) should follow */
  changes: [OrderField, string][];
}

/** Puts a value in an element the way react-hook-form's `register` does. */
function show(element: HTMLInputElement | HTMLSelectElement, value: string | boolean | undefined): void {
  if (element instanceof HTMLInputElement && element.type === "radio") element.checked = element.value === value;
  else if (element instanceof HTMLInputElement && element.type === "checkbox") element.checked = value === true;
  else element.value = typeof value === "string" ? value : "";
}

/**
 * The page's own driver until the form code takes over: each field starts from `initial` and
 * keeps what the visitor types; the fields that change what is shown are followed.
 */
function useFieldsBeforeLoad(initial: OrderFormValues, pending: { current: Pending }) {
  const [values, setValues] = useState<WatchedValues>(
    () => Object.fromEntries(WATCHED.map((name) => [name, initial[name]])) as WatchedValues,
  );
  // One binding a field, so React attaches each element once and never resets what was typed.
  const bindings = useRef(new Map<OrderField, UseFormRegisterReturn>());
  const field = useCallback(
    (name: OrderField): UseFormRegisterReturn => {
      let binding = bindings.current.get(name);
      if (!binding) {
        binding = {
          name,
          ref: (element: HTMLInputElement | HTMLSelectElement | null) => {
            if (element) show(element, initial[name]);
          },
          onChange: async ({ target }: { target: HTMLInputElement | HTMLSelectElement }) => {
            if ((WATCHED as string[]).includes(name)) setValues((current) => ({ ...current, [name]: target.value }));
            if (name === "package" || name === "duration") pending.current.changes.push([name, target.value]);
          },
          onBlur: async () => undefined,
        };
        bindings.current.set(name, binding);
      }
      return binding;
    },
    [initial, pending],
  );
  return { field, values };
}

export function OrderForm({ eager = false }: { eager?: boolean }) {
  const packagesQuery = usePackages();
  const specialsQuery = useSpecials();
  const { settings } = useSettings();
  const packagesReady = !packagesQuery.isPending;
  const choices = useMemo(
    () => orderChoices(packagesQuery.isPending ? null : (packagesQuery.data ?? []), specialsQuery.data ?? [], packagesQuery.isError),
    [packagesQuery.isPending, packagesQuery.data, packagesQuery.isError, specialsQuery.data],
  );
  // A sport event day: the trial is offered nowhere in the form, and asking for it selects nothing.
  const noTrial = useTrialUnavailable();

  const [searchParams] = useSearchParams();
  const [initialValues] = useState<OrderFormValues>(() => {
    const values: OrderFormValues = { ...loadDraft(), immediateStartConsent: false };
    const speed = searchParams.get("speed");
    if (speed) values.internetSpeed = speed.slice(0, 40);
    return values;
  });
  const [initialDuration] = useState(() => searchParams.get("duration"));

  const formRef = useRef<HTMLFormElement>(null);
  const pending = useRef<Pending>({ submit: false, duration: null, speed: null, changes: [] });
  const [live, setLive] = useState<LiveDriver | null>(null);
  // The form code is wanted: at once on /order or with a ?duration=, else on the first touch.
  const [wanted, setWanted] = useState(eager || initialDuration !== null);
  // A failed download is tried again (a fresh lazy component) on the next touch.
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt is a new download
  const LiveForm = useMemo(() => lazy(loadLiveForm), [attempt]);
  const [sending, setSending] = useState(false);
  const takeOver = useCallback(() => setWanted(true), []);

  const before = useFieldsBeforeLoad(initialValues, pending);
  const driverBeforeLoad: FormDriver = {
    field: before.field,
    values: before.values,
    errors: {},
    isSubmitting: sending,
    onSubmit: (event) => {
      event?.preventDefault();
      pending.current.submit = true;
      setSending(true);
      takeOver();
    },
    sentUrl: null,
  };

  useOrderEvents({
    onDuration: (duration) => {
      if (live) return live.applyDuration(duration);
      pending.current.duration = duration;
      takeOver();
    },
    onSpeed: (speed) => {
      if (live) return live.setSpeed(speed);
      pending.current.speed = speed;
      takeOver();
    },
  });

  // The form code has taken over: what was asked meanwhile is done now, in order.
  useEffect(() => {
    if (!live) return;
    const asked = pending.current;
    for (const [name, value] of asked.changes.splice(0)) live.replayChange(name, value);
    if (asked.duration) live.applyDuration(asked.duration);
    if (asked.speed) live.setSpeed(asked.speed);
    asked.duration = null;
    asked.speed = null;
    if (asked.submit) {
      asked.submit = false;
      setSending(false);
      live.onSubmit();
    }
  }, [live]);

  const onLoadFailed = () => {
    // Offline: nothing typed is lost, and the next touch tries again.
    toast.error(ORDER_MESSAGES.failureTitle, { description: "Could not reach the server. Check your connection and try again." });
    pending.current.submit = false;
    setSending(false);
    setWanted(false);
    setAttempt((n) => n + 1);
  };

  return (
    <>
      {live?.trialStarted ? (
        <Suspense fallback={<p className="text-sm text-ink-muted">Opening your free trial...</p>}>
          <InstantTrial trial={live.trialStarted} onClose={live.closeTrial} />
        </Suspense>
      ) : (
        <form
          ref={formRef}
          // The form's code has taken over (tests wait for it).
          data-ready={live ? "true" : undefined}
          noValidate
          onSubmit={(live ?? driverBeforeLoad).onSubmit}
          onFocus={() => {
            takeOver();
            void loadOrderSchema().catch(() => undefined);
          }}
          aria-label="Order form"
          className="flex flex-col gap-8"
        >
          <OrderFields
            driver={live ?? driverBeforeLoad}
            choices={choices}
            packagesReady={packagesReady}
            noTrial={noTrial}
            settings={settings}
          />
        </form>
      )}
      {wanted ? (
        <ErrorBoundary key={attempt} fallback={() => null} onError={onLoadFailed}>
          <Suspense fallback={null}>
            <LiveForm
              form={formRef}
              initialValues={initialValues}
              initialDuration={initialDuration}
              choices={choices}
              packagesReady={packagesReady}
              noTrial={noTrial !== null}
              onDriver={setLive}
            />
          </Suspense>
        </ErrorBoundary>
      ) : null}
    </>
  );
}
