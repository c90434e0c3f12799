// Prices as the visitor sees them: fallback packages, the order form's fixed price list, the
// special-matching rule (spec §4) and the plan cards built from packages and specials.
import type { Package, Special } from "./api";
import { formatRand, toCents } from "./money";

/**
 * Spec §9: "Month to Month R200 (1 Month), 3 Months R500 (featured), 6 Months R900", used
 * when the packages read fails. Frozen so an accidental in-place sort fails loudly; typed as
 * a plain Package[] so it fits ListResponse<Package>.
 */
export const FALLBACK_PACKAGES: Package[] = deepFreeze([
  fallbackPackage(1, "Month to Month", 200, "1 Month", 1, false, "Pay as you go, one month at a time."),
  fallbackPackage(2, "3 Months", 500, "3 Months", 3, true, "Three months of streaming at a lower monthly price."),
  fallbackPackage(3, "6 Months", 900, "6 Months", 6, false, "Six months of streaming for the best monthly price."),
]);

function fallbackPackage(
  n: number,
  name: string,
  price: number,
  duration: string,
  months: number,
  featured: boolean,
  description: string,
): Package {
  return {
    id: `fallback-${n}`,
    name,
    price,
    duration,
    duration_months: months,
    features: ["Live TV channels", "Movies and series on demand", "HD/4K streaming", "Support on WhatsApp"],
    description,
    is_featured: featured,
    sort_order: n,
    is_active: true,
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
}

function deepFreeze<T extends Package[]>(list: T): T {
  for (const p of list) {
    Object.freeze(p.features);
    Object.freeze(p);
  }
  return Object.freeze(list) as T;
}

export interface OrderFormPrice {
  name: string;
  price: number;
  duration: string;
}

/**
 * Spec §9: the order form's hard-coded pricing (ZAR). It differs from the fallback packages
 * above; the spec says both readings stand, so both are kept as given.
 */
export const ORDER_FORM_PRICING: readonly OrderFormPrice[] = Object.freeze([
  { name: "Month to Month", price: 650, duration: "1 Month" },
  { name: "3 Months", price: 1650, duration: "3 Months" },
  { name: "6 Months", price: 3150, duration: "6 Months" },
  { name: "12 Months", price: 5999, duration: "12 Months" },
  { name: "24 Months", price: 10999, duration: "24 Months" },
]);

/** Spec §9 fallback option text: 'Month to Month - R200'. */
export function packageOptionLabel(pkg: { name: string; price: number }): string {
  return `${pkg.name} - ${formatRand(pkg.price)}`;
}

/** Spec §9: a special's original_price must be within R0.01 of the package price. */
export const SPECIAL_PRICE_TOLERANCE = 0.01;

/**
 * Whole months in a duration text: '1 Month' → 1, '12 months' → 12, '1 Year' → 12,
 * 'Month to Month'/'Monthly' → 1; anything else ('24 Hours', 'free-trial') → null.
 */
export function monthsFromDuration(duration: string): number | null {
  const text = duration.trim().toLowerCase();
  if (text === "month to month" || text === "monthly") return 1;
  const m = /^(\d{1,3})\s*-?\s*(months?|years?)$/.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  if (n <= 0) return null;
  return m[2].startsWith("year") ? n * 12 : n;
}

/** How many months a package buys: its duration_months, else what its duration text (or name) says. */
export function packageMonths(pkg: { duration_months: number | null; duration?: string; name?: string } | null | undefined): number | null {
  if (!pkg) return null;
  if (pkg.duration_months !== null && pkg.duration_months > 0) return pkg.duration_months;
  return monthsFromDuration(pkg.duration ?? "") ?? monthsFromDuration(pkg.name ?? "");
}

/** Spec §4: the month counts whose names a special may spell in any letter case. */
export const CASE_INSENSITIVE_SPECIAL_MONTHS: readonly number[] = [1, 3, 6, 12, 24];

const monthsName = (n: number) => `${n} ${n === 1 ? "Month" : "Months"}`;

/**
 * The names a special may use for this package. Spec §4, read literally:
 *  1. the package name, exactly (case-sensitive);
 *  2. '{N} Month(s)' built from the duration — '1 Month', '3 Months' — exactly;
 *  3. for N of 1, 3, 6, 12 or 24, that same '{N} month(s)' name in any letter case
 *     (listed here in lower case; `specialMatchesPackage` compares case-insensitively).
 * 'Month to Month' is a candidate only as a package's own name: the spec names no other
 * aliases, and a 1-month package is still reached through '1 Month'.
 */
export function specialNameCandidates(pkg: { name: string; duration: string }): string[] {
  const names = [pkg.name];
  const months = monthsFromDuration(pkg.duration);
  if (months !== null) {
    names.push(monthsName(months));
    if (CASE_INSENSITIVE_SPECIAL_MONTHS.includes(months)) names.push(monthsName(months).toLowerCase());
  }
  return [...new Set(names)];
}

/** Whether a special's package_name refers to this package (the name rules of spec §4). */
export function specialMatchesPackage(pkg: { name: string; duration: string }, specialName: string): boolean {
  if (specialName === pkg.name) return true;
  const months = monthsFromDuration(pkg.duration);
  if (months === null) return false;
  const built = monthsName(months);
  if (specialName === built) return true;
  return CASE_INSENSITIVE_SPECIAL_MONTHS.includes(months) && specialName.toLowerCase() === built.toLowerCase();
}

/** Within SPECIAL_PRICE_TOLERANCE, inclusive, compared in whole cents so float noise can't decide. */
function withinTolerance(a: number, b: number): boolean {
  return Math.abs(toCents(a) - toCents(b)) <= toCents(SPECIAL_PRICE_TOLERANCE);
}

/**
 * The first special (in the order given) for this package: its name matches and its
 * original_price is within R0.01 of the package price. A "special" that does not lower the
 * price (special_price ≥ original_price, or negative) is ignored: showing "Save R-50" or
 * charging more than the list price is never what the operator meant.
 */
export function findSpecial<S extends Pick<Special, "package_name" | "original_price" | "special_price">>(
  pkg: { name: string; price: number; duration: string },
  specials: readonly S[],
): S | null {
  for (const special of specials) {
    if (!Number.isFinite(special.original_price) || !Number.isFinite(special.special_price)) continue;
    if (special.special_price < 0 || toCents(special.special_price) >= toCents(special.original_price)) continue;
    if (specialMatchesPackage(pkg, special.package_name) && withinTolerance(special.original_price, pkg.price)) return special;
  }
  return null;
}

/** Spec §3 plan view model, plus the package id the plan was built from. */
export interface PlanViewModel {
  /** the plan's name as a heading: the package name, or 'Free Trial' */
  period: string;
  /** '1 Month', '24 Hours', ... */
  duration: string;
  price: number | "FREE";
  /** the package price, struck through, when a special applies */
  originalPrice?: number;
  /** 'Save R150' with a special; 'Not on Sport Days' on the free trial */
  note?: string;
  popular: boolean;
  hasSpecial: boolean;
  features: string[];
  description: string;
  packageName: string;
  packageId?: string;
  /** set when the shop cannot make a line for the package yet (no panel package mapped): shown, but not sold */
  unavailable?: true;
}

/** Spec §4: the synthetic Free Trial plan (24 hours, FREE, not on sport days). */
export const FREE_TRIAL_PLAN: Readonly<PlanViewModel> = Object.freeze({
  period: "Free Trial",
  duration: "24 Hours",
  price: "FREE" as const,
  note: "Not on Sport Days",
  popular: false,
  hasSpecial: false,
  features: Object.freeze(["Full channel line-up for 24 hours", "No credit card needed", "Set up on your own device"]) as string[],
  description: "Try the service free for 24 hours before you pay.",
  packageName: "Free Trial",
});

/** A package that is itself a free offer: 'free' in its name (any case) or a price of 0. */
export function isFreePackage(pkg: { name: string; price: number }): boolean {
  return pkg.name.toLowerCase().includes("free") || pkg.price === 0;
}

export function isFreePlan(plan: Pick<PlanViewModel, "price">): boolean {
  return plan.price === "FREE" || plan.price === 0;
}

type PlanPackage = Pick<Package, "name" | "price" | "duration" | "features" | "description" | "is_featured" | "available"> & {
  id?: string;
};

/**
 * Plan cards: one per package, in the given order, with its special applied; the Free Trial
 * plan first when no package is already a free offer (spec §4).
 */
export function buildPlans(
  packages: readonly PlanPackage[],
  specials: readonly Pick<Special, "package_name" | "original_price" | "special_price">[],
): PlanViewModel[] {
  const plans = packages.map((pkg): PlanViewModel => {
    const plan: PlanViewModel = {
      period: pkg.name,
      duration: pkg.duration,
      price: pkg.price,
      popular: pkg.is_featured,
      hasSpecial: false,
      features: [...pkg.features],
      description: pkg.description,
      packageName: pkg.name,
    };
    if (pkg.id !== undefined) plan.packageId = pkg.id;
    if (pkg.available === false) plan.unavailable = true;
    const special = findSpecial(pkg, specials);
    if (special) {
      plan.price = special.special_price;
      plan.originalPrice = pkg.price;
      plan.hasSpecial = true;
      plan.note = `Save ${formatRand((toCents(pkg.price) - toCents(special.special_price)) / 100)}`;
    }
    return plan;
  });
  if (!packages.some(isFreePackage)) plans.unshift({ ...FREE_TRIAL_PLAN, features: [...FREE_TRIAL_PLAN.features] });
  return plans;
}
