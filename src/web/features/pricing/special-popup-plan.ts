// Which plan the special popup's Order Now selects (spec §4: "Order Now ... scrolls to the order
// section with duration monthly"). That is right for a banner about specials in general; a
// banner about one special (the demo shop's "Special: save R200 on 3 Months") should select the
// package it advertises, not Month to Month.
import type { Banner } from "@/shared/api";
import type { PlanViewModel } from "@/shared/pricing";
import { monthlyDuration, planDuration } from "./plan-actions";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Whether `text` names `name` as a whole phrase ('3 Months' is not found in '13 Months'). */
function names(text: string, name: string): boolean {
  const trimmed = name.trim();
  return trimmed !== "" && new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(trimmed)}($|[^\\p{L}\\p{N}])`, "iu").test(text);
}

/** The plan on special that the banner names (by package name or duration), or null when it names none. */
export function planForPopup(banner: Pick<Banner, "title" | "content">, plans: readonly PlanViewModel[]): PlanViewModel | null {
  const text = `${banner.title}\n${banner.content}`;
  const onSpecial = plans.filter((plan) => plan.hasSpecial);
  // Longer names first: a banner about "12 Months" is about that plan, whatever else it mentions.
  const candidates = onSpecial
    .flatMap((plan) => [plan.packageName, plan.duration].map((name) => ({ plan, name })))
    .sort((a, b) => b.name.length - a.name.length);
  return candidates.find(({ name }) => names(text, name))?.plan ?? null;
}

/** The duration Order Now selects: the advertised special's, else the monthly plan's. */
export function popupOrderDuration(banner: Pick<Banner, "title" | "content">, plans: readonly PlanViewModel[]): string {
  const plan = planForPopup(banner, plans);
  return plan ? planDuration(plan) : monthlyDuration(plans);
}
