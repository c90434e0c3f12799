// Window events the spec names (§7): the page's parts talk through them without importing
// each other (the order form listens for selectDuration; admin edits announce price changes).
import { HERO_DURATION_EVENT_DELAY_MS } from "@/shared/constants";
import { scrollToSection } from "./scroll";

export const SELECT_DURATION = "selectDuration";

/** Events after which the packages are refetched at once. */
export const PACKAGE_EVENTS = ["pricingUpdated", "packageUpdated", "adminPackageUpdated", "publicPackageUpdated"] as const;
/** After this one the specials are refetched 500 ms later (SPECIALS_REFETCH_DELAY_MS). */
export const SPECIALS_EVENT = "specialsUpdated";

export interface SelectDurationDetail {
  duration: string;
}

/** How long a selectDuration waits for an order form that is still mounting. */
export const PENDING_DURATION_MAX_AGE_MS = 10_000;

let pendingDuration: { duration: string; at: number } | null = null;

export function emitSelectDuration(duration: string): void {
  // Kept until a form takes it: the order section may still be mounting when the event fires.
  pendingDuration = { duration, at: Date.now() };
  window.dispatchEvent(new CustomEvent<SelectDurationDetail>(SELECT_DURATION, { detail: { duration } }));
}

/** The duration asked for in the last few seconds that no form has taken yet, taken now. */
export function takePendingDuration(): string | null {
  const pending = pendingDuration;
  pendingDuration = null;
  return pending && Date.now() - pending.at <= PENDING_DURATION_MAX_AGE_MS ? pending.duration : null;
}

/** Scrolls to the order section, then (after the spec's 500 ms) asks the order form to select a duration. */
export function orderWithDuration(duration: string): void {
  scrollToSection("order");
  window.setTimeout(() => emitSelectDuration(duration), HERO_DURATION_EVENT_DELAY_MS);
}
