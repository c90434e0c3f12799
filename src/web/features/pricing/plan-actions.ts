// What a plan card may offer, and where its buttons lead.
import { formatRand } from "@/shared/money";
import { FREE_TRIAL_DURATION } from "@/shared/options";
import { isFreePlan, monthsFromDuration, type PlanViewModel } from "@/shared/pricing";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Pay Now needs a real package the server can price: not the free plan, and not one of the
 * built-in fallback packages (shown when the packages cannot be read, so they have no id).
 */
export function canPayOnline(plan: PlanViewModel): plan is PlanViewModel & { packageId: string } {
  return !isFreePlan(plan) && typeof plan.packageId === "string" && UUID.test(plan.packageId);
}

/** A plan the shop cannot make a line for yet (no panel package mapped): shown, not sold; the server's 409 says the same. */
export const PLAN_UNAVAILABLE_TEXT = "This package is not available yet — please choose another or contact us.";

/** The duration the order form should select for this plan. */
export function planDuration(plan: PlanViewModel): string {
  return isFreePlan(plan) ? FREE_TRIAL_DURATION : plan.duration;
}

/** The 1-month plan's duration value ('1 Month'), which the special popup's Order Now selects. */
export function monthlyDuration(plans: readonly PlanViewModel[]): string {
  return plans.find((plan) => !isFreePlan(plan) && monthsFromDuration(plan.duration) === 1)?.duration ?? "1 Month";
}

/** The headline price: 'FREE' or R{price}. */
export function priceLabel(plan: PlanViewModel): string {
  return isFreePlan(plan) ? "FREE" : formatRand(plan.price as number);
}
