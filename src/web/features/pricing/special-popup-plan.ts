// Which plan the special popup's Order Now selects (spec §4: "Order Now ... scrolls to the order
// section with duration monthly"). That is right for a banner about specials in general; a
// banner about one special (the demo shop's "Special: save R200 on 3 Months") should select the
// package it advertises, not Month to Month.
import type { Banner } from "@/shared/api";
import type { PlanViewModel } from "@/shared/pricing";
import { monthlyDuration, planDuration } from "./plan-actions";

/** A letter or digit of any script. One pattern, made once: a case-insensitive Unicode pattern per name cost about a millisecond each to build as the popup opened. */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** The code point just before `index` (a surrogate pair whole), or '' at the start. */
function pointBefore(text: string, index: number): string {
  const low = text.charCodeAt(index - 1);
  return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? text.slice(index - 2, index) : text.slice(Math.max(0, index - 1), index);
}

/** The code point at `index`, or '' at the end. */
const pointAt = (text: string, index: number) => (index < text.length ? String.fromCodePoint(text.codePointAt(index) ?? 0) : "");

/** Whether `text` names `name` as a whole phrase, in any letter case ('3 Months' is not found in '13 Months'). */
function names(text: string, name: string): boolean {
  const needle = name.trim().toLowerCase();
  if (needle === "") return false;
  const haystack = text.toLowerCase();
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const bounded = !LETTER_OR_DIGIT.test(pointBefore(haystack, at)) && !LETTER_OR_DIGIT.test(pointAt(haystack, at + needle.length));
    if (bounded) return true;
  }
  return false;
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
