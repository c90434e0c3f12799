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

export function emitSelectDuration(duration: string): void {
  window.dispatchEvent(new CustomEvent<SelectDurationDetail>(SELECT_DURATION, { detail: { duration } }));
}

/** Scrolls to the order section, then (after the spec's 500 ms) asks the order form to select a duration. */
export function orderWithDuration(duration: string): void {
  scrollToSection("order");
  window.setTimeout(() => emitSelectDuration(duration), HERO_DURATION_EVENT_DELAY_MS);
}
