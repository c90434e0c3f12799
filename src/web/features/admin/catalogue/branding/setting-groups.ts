// The site settings the product reads (seeded by src/server/db/seed-content.ts), grouped and
// labelled for the business. Keys not listed here show under "Other settings".
import { billingSettingProblem } from "@/shared/billing";
import { RUNWAY_ALERT_DAYS_MESSAGE } from "@/shared/business-schemas";
import { DEFAULT_WHATSAPP_CODE_CAP, WHATSAPP_CODE_CAP_SETTING, whatsappCodeCapProblem } from "@/shared/code-limits";
import { MAC_CHANGE_SETTING_MESSAGE } from "@/shared/device-lines";
import { WHATSAPP_RETENTION_SETTING, whatsappRetentionProblem } from "@/shared/inbox-schemas";
import { OWNER_ALERT_CAUSES, OWNER_ALERT_SETTINGS, ownerAlertSettingProblem } from "@/shared/owner-alerts";
import { TRIAL_LIMIT_DEFAULTS, TRIAL_SETTINGS, trialSettingProblem } from "@/shared/trial-schemas";
export interface KnownSetting {
  key: string;
  label: string;
  hint?: string;
  /** a long text, an e-mail address, or a line (a yes/no is `options` with its own words) */
  kind?: "text" | "long" | "email";
  /** shown while empty: what the product uses when the setting is not set */
  placeholder?: string;
  /** what is wrong with a value, checked before saving (null when it is fine; empty always is) */
  check?: (value: string) => string | null;
  /** a choice from a list instead of a line ('' is the default's entry) */
  options?: { value: string; label: string }[];
  /** what the field shows while the setting is not stored, for a choice whose default has a value of its own ('on') */
  unsetValue?: string;
}

export interface SettingGroup {
  id: string;
  title: string;
  description: string;
  settings: KnownSetting[];
}

export const BUSINESS_GROUP: SettingGroup = {
  id: "business",
  title: "Business details (legal pages)",
  description:
    "Stated on the privacy, terms and refund pages. Leave a field empty if it does not apply: the pages then say it is available on request.",
  settings: [
    { key: "business_legal_name", label: "Registered legal name", hint: "e.g. Example Media (Pty) Ltd" },
    { key: "registration_number", label: "Company registration number (CIPC)" },
    { key: "business_address", label: "Physical address for legal notices", kind: "long" },
    { key: "information_officer_name", label: "Information officer (POPIA)", hint: "Usually the owner or a director" },
    { key: "information_officer_email", label: "Information officer's e-mail", kind: "email" },
  ],
};

const ownerAlertCheck = (key: string) => (value: string) => ownerAlertSettingProblem(key, value);
const ALERT_SWITCH = [
  { value: "", label: "On (the default)" },
  { value: "on", label: "On" },
  { value: "off", label: "Off" },
];

/** The owner's alerts (shared/owner-alerts.ts; docs/architecture.md, "Owner alerts"). */
export const OWNER_ALERTS_GROUP: SettingGroup = {
  id: "owner-alerts",
  title: "Your alerts",
  description:
    "Told at once, on your own e-mail (and WhatsApp, when you set a number), when something needs you: each once, with the link to the page where you act. Never to the support e-mail (Branding): that address is shown to customers, and these name your clients. WhatsApp alerts need the WhatsApp Cloud API (and, when you have not written to your business number in the last 24 hours, an approved template for owner-alert messages); without the Cloud API they go by e-mail only.",
  settings: [
    {
      key: OWNER_ALERT_SETTINGS.email,
      label: "Alerts e-mail",
      kind: "email",
      hint: "Where every notice for you goes: payments received, new orders and trial requests, EFTs to confirm, panel jobs that failed, panel credits running low or out, messages not sent and the daily summary. They name your clients, so use your own address, e.g. owner@example.co.za. Empty: the first admin's address. Not shown on the site.",
      placeholder: "Not set: the first admin's address",
      check: ownerAlertCheck(OWNER_ALERT_SETTINGS.email),
    },
    {
      key: OWNER_ALERT_SETTINGS.whatsapp,
      label: "Alert WhatsApp number",
      hint: "A South African number, e.g. 082 123 4567. Not shown on the site.",
      check: ownerAlertCheck(OWNER_ALERT_SETTINGS.whatsapp),
    },
    ...Object.values(OWNER_ALERT_CAUSES).map((cause) => ({
      key: cause.setting,
      label: cause.label,
      options: ALERT_SWITCH,
      check: ownerAlertCheck(cause.setting),
    })),
    {
      key: OWNER_ALERT_SETTINGS.digest,
      label: "Daily summary of yesterday",
      hint: "Payments (how many, how much), new clients, trials started and paid, and what waits for you.",
      options: [
        { value: "", label: "Off (the default)" },
        { value: "on", label: "On" },
        { value: "off", label: "Off" },
      ],
      check: ownerAlertCheck(OWNER_ALERT_SETTINGS.digest),
    },
    {
      key: OWNER_ALERT_SETTINGS.digestHour,
      label: "Summary hour (South African time)",
      hint: "A whole hour from 0 to 23, e.g. 7 for 07:00.",
      placeholder: "Not set: 7 (07:00)",
      check: ownerAlertCheck(OWNER_ALERT_SETTINGS.digestHour),
    },
  ],
};

const trialCheck = (key: string) => (value: string) => trialSettingProblem(key, value);

/** The free trial: how long, the rules shown with it, and how requests are let in (shared/trial-schemas.ts; modules/trials). */
export const FREE_TRIALS_GROUP: SettingGroup = {
  id: "free-trials",
  title: "Free trials",
  description:
    "How long a free trial runs, the rules shown beside the free-trial button, and how trial requests are let in: at once with a one-time code, or by you, within the limits below.",
  settings: [
    {
      key: "free_trial_hours",
      label: "Free trial length (hours)",
      hint: "A whole number from 1 to 168 (a week). The customer is reminded once, a few hours before it ends.",
      placeholder: "Not set: 24, the default",
    },
    {
      key: TRIAL_SETTINGS.mode,
      label: "How a trial starts",
      hint: "Instant: the customer enters the code we send them and the panel makes their trial line at once. You approve: each request waits for you under Leads.",
      options: [
        { value: "", label: "Automatic (the default): instant once the panel has a trial package, else you approve" },
        { value: "instant", label: "Instant, with a one-time code" },
        { value: "approve", label: "You approve each request" },
      ],
      check: trialCheck(TRIAL_SETTINGS.mode),
    },
    {
      key: TRIAL_SETTINGS.perNetwork,
      label: "Trials a day from one internet connection",
      hint: "A whole number from 1 to 1000: the trials asked for from one home or mobile network (one address range) in a South African day.",
      placeholder: `Not set: ${TRIAL_LIMIT_DEFAULTS.perNetwork}, the default`,
      check: trialCheck(TRIAL_SETTINGS.perNetwork),
    },
    {
      key: TRIAL_SETTINGS.dailyCap,
      label: "Trials a day for the whole shop",
      hint: "A whole number from 1 to 100000: once this many trials have started today, the rest are asked to come back tomorrow.",
      placeholder: `Not set: ${TRIAL_LIMIT_DEFAULTS.dailyCap}, the default`,
      check: trialCheck(TRIAL_SETTINGS.dailyCap),
    },
    {
      key: TRIAL_SETTINGS.disposable,
      label: "Throwaway e-mail addresses",
      hint: "Refusing them (addresses from services that make one for a few minutes) keeps one person from taking trial after trial.",
      options: [
        { value: "on", label: "Refuse them (the default)" },
        { value: "off", label: "Let them through" },
      ],
      unsetValue: "on",
      check: trialCheck(TRIAL_SETTINGS.disposable),
    },
    { key: "free_trial_rules", label: "Free trial rules", kind: "long", hint: "Shown beside the free-trial button and in the order form." },
  ],
};

export const SETTING_GROUPS: SettingGroup[] = [
  {
    id: "eft",
    title: "EFT bank details",
    description: "Shown to customers who pay by bank transfer. Check them twice: customers copy them exactly.",
    settings: [
      { key: "eft_bank_name", label: "Bank", hint: "e.g. FNB" },
      { key: "eft_account_name", label: "Account holder" },
      { key: "eft_account_number", label: "Account number" },
      { key: "eft_branch_code", label: "Branch code", hint: "e.g. 250655" },
      { key: "eft_account_type", label: "Account type", hint: "Cheque/Current or Savings" },
      { key: "eft_reference_prefix", label: "Payment reference starts with", hint: "The order number follows, e.g. SD" },
    ],
  },
  {
    id: "support",
    title: "Support and grace",
    description: "When people answer, and the grace days after a paid term ends.",
    settings: [
      { key: "support_hours", label: "Support hours", hint: "e.g. 9am-8pm, 7 days a week" },
      {
        key: "grace_days",
        label: "Grace days after a paid term ends",
        hint: "A whole number from 0 to 30: how long an ended paid term stays in grace before it expires. Trials have no grace.",
        placeholder: "Not set: 3, the default",
      },
      {
        key: WHATSAPP_RETENTION_SETTING,
        label: "Keep WhatsApp inbox messages (months)",
        hint: "A whole number from 1 to 120. Older messages are deleted (POPIA: keep personal information no longer than needed).",
        placeholder: "Not set: 12, the default",
        check: (value) => whatsappRetentionProblem(WHATSAPP_RETENTION_SETTING, value),
      },
      {
        key: WHATSAPP_CODE_CAP_SETTING,
        label: "WhatsApp code messages a day (cap)",
        hint: "Each one-time code on WhatsApp is a paid authentication message. Past this many in a day, codes go by e-mail only and you are alerted once (issue 46).",
        placeholder: `Not set: ${DEFAULT_WHATSAPP_CODE_CAP}, the default`,
        check: (value) => whatsappCodeCapProblem(WHATSAPP_CODE_CAP_SETTING, value),
      },
    ],
  },
  FREE_TRIALS_GROUP,
  {
    id: "panel",
    title: "IPTV panel",
    description:
      "The overview and the panel page warn you when the panel's reseller credits run low, before new lines fail for want of them.",
    settings: [
      {
        key: "panel_credit_warning",
        label: "Warn when panel credits fall below",
        hint: "A whole number of credits, e.g. 10.",
        placeholder: "Not set: 10, the default",
        check: (value) => (value.trim() === "" || /^\d{1,6}$/.test(value.trim()) ? null : "Enter a whole number of credits, e.g. 10"),
      },
      {
        key: "panel_runway_alert_days",
        label: "E-mail me this many days before the credits run out",
        hint: "Whole days, e.g. 7: counted against the renewals due in the next 30 days.",
        placeholder: "Not set: 7, the default",
        check: (value) => (value.trim() === "" || /^\d{1,2}$/.test(value.trim()) ? null : RUNWAY_ALERT_DAYS_MESSAGE),
      },
      {
        key: "mac_change_cooldown_hours",
        label: "Hours between a client's MAC address changes",
        hint: "For MAG and Enigma2 boxes, changed from the portal. A whole number, e.g. 24.",
        placeholder: "Not set: 24, the default",
        check: (value) => (value.trim() === "" || /^\d{1,4}$/.test(value.trim()) ? null : MAC_CHANGE_SETTING_MESSAGE),
      },
      {
        key: "mac_change_monthly_limit",
        label: "MAC address changes a client may make in 30 days",
        hint: "A whole number, e.g. 2.",
        placeholder: "Not set: 2, the default",
        check: (value) => (value.trim() === "" || /^\d{1,4}$/.test(value.trim()) ? null : MAC_CHANGE_SETTING_MESSAGE),
      },
    ],
  },
  {
    id: "vat",
    title: "Prices, VAT and invoices",
    description:
      "Say whether the prices shown include VAT, and the note shown with prices. A VAT vendor's invoices are tax invoices with the VAT carved out of the price; the seller's name and address come from the business details.",
    settings: [
      {
        key: "prices_include_vat",
        label: "Do the prices shown include VAT?",
        hint: "Keep the VAT note below saying the same.",
        options: [
          { value: "", label: "Not said" },
          { value: "true", label: "Yes: the prices include VAT" },
          { value: "false", label: "No: not registered for VAT, or VAT is added" },
        ],
      },
      { key: "vat_note", label: "VAT note", kind: "long", hint: "Shown with the prices, e.g. “All prices include 15% VAT.”" },
      {
        key: "vat_vendor",
        label: "Registered for VAT (a VAT vendor)",
        hint: "Yes: invoices are tax invoices with the VAT shown and your VAT number.",
        options: [
          { value: "", label: "Not said" },
          { value: "true", label: "Yes: registered for VAT" },
          { value: "false", label: "No: not registered" },
        ],
      },
      {
        key: "vat_number",
        label: "VAT number",
        hint: "10 digits starting with 4, printed on tax invoices.",
        check: (value) => billingSettingProblem("vat_number", value),
      },
      {
        key: "vat_rate",
        label: "VAT rate (%)",
        placeholder: "Not set: 15, the default",
        check: (value) => billingSettingProblem("vat_rate", value),
      },
      {
        key: "invoice_prefix",
        label: "Invoice number prefix",
        placeholder: "Not set: INV-",
        check: (value) => billingSettingProblem("invoice_prefix", value),
      },
      {
        key: "credit_note_prefix",
        label: "Credit note number prefix",
        placeholder: "Not set: CN-",
        check: (value) => billingSettingProblem("credit_note_prefix", value),
      },
    ],
  },
  OWNER_ALERTS_GROUP,
];

export const KNOWN_SETTING_KEYS = new Set([...SETTING_GROUPS, BUSINESS_GROUP].flatMap((g) => g.settings.map((s) => s.key)));
