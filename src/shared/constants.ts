// Spec §9 business constants that are not prices, readiness or caching (those live in
// pricing.ts, readiness.ts and retry.ts).
import type { PaymentMethods } from "./api";

/** Free trial: 24 hours, not on sport event days. */
export const FREE_TRIAL_HOURS = 24;
/** Advertised support hours. */
export const SUPPORT_HOURS = "9am-8pm, 7 days a week";

/** The special popup appears 1 s after load, once per browser session. */
export const SPECIAL_POPUP_DELAY_MS = 1000;
export const SPECIAL_POPUP_SESSION_FLAG = "popupShownThisSession";
/** The hero's free-trial button emits selectDuration 500 ms after scrolling. */
export const HERO_DURATION_EVENT_DELAY_MS = 500;
/** Testimonials advance every 6 s, cycling. */
export const TESTIMONIAL_ROTATION_MS = 6000;
/** The notification permission prompt appears 3 s after first run (spec §4). */
export const NOTIFICATION_PROMPT_DELAY_MS = 3000;

/**
 * Toasts: top-right, expanded, at most 5 visible, 4000 ms, rich colours (sonner's Toaster
 * props; the theme follows the app's theme, so it is set where the theme is known).
 */
export const TOAST_OPTIONS = Object.freeze({
  position: "top-right",
  expand: true,
  visibleToasts: 5,
  duration: 4000,
  richColors: true,
} as const);

/**
 * What the seed writes into the bank-detail settings until the owner fills them in. While any
 * of them still says this (or is empty), nobody is shown EFT details: customers would copy
 * and pay into nothing (see eftReady).
 */
export const SETTING_PLACEHOLDER = "Set in Admin › Settings";

/** The settings a customer needs to pay by EFT: all must be filled in before EFT is offered. */
export const EFT_BANK_SETTING_KEYS = ["eft_bank_name", "eft_account_name", "eft_account_number", "eft_branch_code"] as const;
/** Bank fields a customer may be shown without needing them: empty is fine, the seed's placeholder is not. */
export const EFT_OPTIONAL_BANK_SETTING_KEYS = ["eft_account_type"] as const;

/** A value the seed wrote, never filled in (however it was re-typed around it). */
export const isPlaceholder = (value: string | null | undefined): boolean =>
  (value ?? "").trim().toLowerCase() === SETTING_PLACEHOLDER.toLowerCase();

/**
 * Whether the bank details are real enough to show a customer: the required ones filled in and no
 * bank field still the seed's placeholder (issue 28: an account type "Set in Admin › Settings"
 * reached the EFT dialog, the e-mail and the portal). Until then EFT is not offered anywhere.
 */
export function eftReady(settings: Record<string, string | null | undefined>): boolean {
  return (
    EFT_BANK_SETTING_KEYS.every((key) => (settings[key]?.trim() ?? "") !== "" && !isPlaceholder(settings[key])) &&
    EFT_OPTIONAL_BANK_SETTING_KEYS.every((key) => !isPlaceholder(settings[key]))
  );
}

/** The bank fields still missing or at the seed's placeholder, by key (the launch checklist names them). */
export function eftMissing(settings: Record<string, string | null | undefined>): string[] {
  return [
    ...EFT_BANK_SETTING_KEYS.filter((key) => (settings[key]?.trim() ?? "") === "" || isPlaceholder(settings[key])),
    ...EFT_OPTIONAL_BANK_SETTING_KEYS.filter((key) => isPlaceholder(settings[key])),
  ];
}

/** How the portal takes payment, for messages that send people there: EFT only once it is offered. */
export const portalPayWays = (settings: Record<string, string | null | undefined>): string =>
  eftReady(settings) ? "by card or EFT" : "by card";

/**
 * Every way to pay that is on (GET /api/payments/methods), for a message that sends people to pay:
 * "by card, PayFast, Ozow or EFT". Card counts in its test mode too (the checkout says so).
 */
export function payWaysWords(methods: PaymentMethods): string {
  const ways = [
    ...(methods.card === "off" ? [] : ["card"]),
    ...(methods.providers ?? []).map((p) => p.name),
    ...(methods.eft ? ["EFT"] : []),
  ];
  if (ways.length === 0) return "by arrangement with us";
  return `by ${ways.length === 1 ? ways[0] : `${ways.slice(0, -1).join(", ")} or ${ways[ways.length - 1]}`}`;
}

/** Said wherever card is offered alone because the bank details are not real yet. */
export const EFT_CARD_ONLY_MESSAGE = "Card payments only for now: paying by EFT isn't available yet.";

/** The answer to "Pay by EFT instead" for a card payment that did not fail (409). */
export const EFT_INSTEAD_NOT_FAILED_MESSAGE = "This card payment did not fail, so there is nothing to pay by EFT instead.";

/** The answer to an EFT request while the bank details are not filled in (409). */
export const EFT_UNAVAILABLE_MESSAGE =
  "Paying by EFT isn't available yet. Please pay by card, or contact us on WhatsApp and we'll help you pay.";
