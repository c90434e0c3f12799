// Spec §9 business constants that are not prices, readiness or caching (those live in
// pricing.ts, readiness.ts and retry.ts).

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

/** Whether the bank details are real enough to show a customer (no placeholder, none empty). */
export function eftReady(settings: Record<string, string | null | undefined>): boolean {
  return EFT_BANK_SETTING_KEYS.every((key) => {
    const value = settings[key]?.trim() ?? "";
    return value !== "" && value !== SETTING_PLACEHOLDER;
  });
}

/** The answer to an EFT request while the bank details are not filled in (409). */
export const EFT_UNAVAILABLE_MESSAGE =
  "Paying by EFT isn't available yet. Please pay by card, or contact us on WhatsApp and we'll help you pay.";
