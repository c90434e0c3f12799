// The order form's fields, summary and button (spec §2, §4, §5), drawn the same whichever runs
// the form: the page's own light driver until the visitor first touches the form, then
// react-hook-form's (order-form-live.tsx), over the same elements, so nothing typed moves or is
// lost when it takes over (order-form.tsx).
import { CheckCircle2, MessageCircle } from "lucide-react";
import type { FormEvent, ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { Link } from "react-router";
import type { SettingsMap } from "@/shared/api";
import { LOGIN_HINTS } from "@/shared/login-channel";
import { DEVICES, FREE_TRIAL_DURATION, FREE_TRIAL_DURATION_LABEL, INTERNET_PLATFORMS } from "@/shared/options";
import { isValidWhatsAppLink } from "@/shared/whatsapp";
import { EmailField, FullNameField, WhatsAppField } from "@/web/components/contact-fields";
import { DeviceLineField } from "@/web/components/device-line-field";
import { CheckboxField, FormField, fieldAria } from "@/web/components/form-field";
import { PopiaNotice } from "@/web/components/popia-notice";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { usePaymentMethods } from "@/web/lib/queries/payment-methods";
import type { TrialUnavailable } from "@/web/lib/queries/trial-availability";
import { scrollToSection } from "@/web/lib/scroll";
import type { OrderDraft } from "./order-draft";
import { chosenPackage, type OrderChoices, type PackageChoice, priceText } from "./order-options";

export type OrderFormValues = OrderDraft & { immediateStartConsent: boolean };
export type OrderField = keyof OrderFormValues;

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

/** The fields whose value changes what the form shows (the summary, the MAC, 'Please specify'). */
export type WatchedValues = Pick<OrderFormValues, "package" | "duration" | "internetPlatform" | "lineType" | "mac">;
export const WATCHED: (keyof WatchedValues)[] = ["package", "duration", "internetPlatform", "lineType", "mac"];

/** What runs the form, as the fields and the button need it. */
export interface FormDriver {
  /** an element's name, value binding and change handler (react-hook-form's `register` shape) */
  field: (name: OrderField) => UseFormRegisterReturn;
  values: WatchedValues;
  /** each field's message, when it has one */
  errors: Partial<Record<OrderField, string>>;
  isSubmitting: boolean;
  onSubmit: (event?: FormEvent) => void;
  /** the WhatsApp link of the order just sent, while the form is untouched since */
  sentUrl: string | null;
}

/** A paid plan is chosen: the ECT s44 consent is then required. */
export function isPaid(choice: PackageChoice | null): choice is PackageChoice & { price: number } {
  return choice !== null && !choice.isFree;
}

interface OrderFieldsProps {
  driver: FormDriver;
  choices: OrderChoices;
  packagesReady: boolean;
  noTrial: TrialUnavailable | null;
  settings: SettingsMap;
}

/** Inside the order form (order-form.tsx draws the form element): its fields, summary and button. */
export function OrderFields({ driver, choices, packagesReady, noTrial, settings }: OrderFieldsProps) {
  const { field, errors, isSubmitting } = driver;
  const { package: watchedPackage, duration: watchedDuration, internetPlatform: platform, lineType, mac } = driver.values;
  const chosen = chosenPackage({ package: watchedPackage, duration: watchedDuration }, choices);
  const isTrial = watchedDuration === FREE_TRIAL_DURATION || chosen?.isFree === true;
  const paid = !isTrial && isPaid(chosen);
  const aria = (name: OrderField, hint = false) => fieldAria(`order-${name}`, { error: errors[name], hint });
  // The login is promised where it will go (shared/login-channel.ts): the address is required here.
  const login = LOGIN_HINTS[usePaymentMethods()?.loginChannel === "whatsapp" ? "whatsapp" : "email"];

  return (
    <>
      <Group legend="Your details">
        <FullNameField id="order-name" field={field("name")} error={errors.name} />
        <EmailField id="order-email" field={field("email")} error={errors.email} hint={login.email} required />
        <WhatsAppField id="order-whatsapp" field={field("whatsapp")} error={errors.whatsapp} hint={login.whatsapp} />
      </Group>

      <Group legend="Your package">
        <FormField id="order-package" label="Select Package" asterisk error={errors.package}>
          <Select id="order-package" {...aria("package")} {...field("package")}>
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
        <FormField id="order-duration" label="Duration" error={errors.duration}>
          <Select id="order-duration" {...aria("duration")} {...field("duration")}>
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
          typeField={field("lineType")}
          macField={field("mac")}
          typeError={errors.lineType}
          macError={errors.mac}
          className="sm:col-span-2"
        />
        <FormField id="order-device" label="Device" error={errors.device}>
          <Select id="order-device" {...aria("device")} {...field("device")}>
            <option value="">Choose your device</option>
            {DEVICES.map((d) => (
              <option key={d.value} value={d.value}>
                {d.label}
              </option>
            ))}
          </Select>
        </FormField>
        <FormField id="order-internetPlatform" label="Internet Platform" asterisk error={errors.internetPlatform}>
          <Select id="order-internetPlatform" {...aria("internetPlatform")} {...field("internetPlatform")}>
            <option value="">Choose your internet</option>
            {INTERNET_PLATFORMS.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </Select>
        </FormField>
        {platform === "other" ? (
          <FormField id="order-otherPlatform" label="Please specify" required error={errors.otherPlatform} className="sm:col-span-2">
            <Input
              id="order-otherPlatform"
              placeholder="e.g. Starlink, ADSL"
              aria-required="true"
              {...aria("otherPlatform")}
              {...field("otherPlatform")}
            />
          </FormField>
        ) : null}
        <FormField
          id="order-internetSpeed"
          label="Internet Speed"
          error={errors.internetSpeed}
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
            {...field("internetSpeed")}
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
            error={errors.immediateStartConsent}
            required
            input={
              <input
                id="order-immediateStartConsent"
                type="checkbox"
                aria-required="true"
                {...aria("immediateStartConsent")}
                {...field("immediateStartConsent")}
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
              {...field("marketingOptIn")}
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
      {driver.sentUrl ? <SentNote url={driver.sentUrl} /> : null}
    </>
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
