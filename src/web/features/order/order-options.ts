// The order form's choices: the packages as 'Name - R{price}' (live, with specials applied,
// or spec §9's hard-coded order-form pricing when the packages can't be read), the free trial,
// and the durations (spec §3: free-trial plus each package's duration). Pure, so the rules
// that tie a package to its duration are tested without a browser.
import type { Package, Special } from "@/shared/api";
import { formatRand } from "@/shared/money";
import { durationOptions, FREE_TRIAL_DURATION, FREE_TRIAL_DURATION_LABEL, type Option } from "@/shared/options";
import { findSpecial, isFreePackage, monthsFromDuration, ORDER_FORM_PRICING, packageOptionLabel } from "@/shared/pricing";

export interface PackageChoice {
  /** what the form sends as `package`: the package's name */
  value: string;
  /** 'Name - R{price}' */
  label: string;
  price: number | "FREE";
  /** the price before a special, when one applies */
  originalPrice?: number;
  /** the Duration value this package goes with ('free-trial' for the trial) */
  duration: string;
  isFree: boolean;
}

export interface OrderChoices {
  packages: PackageChoice[];
  durations: Option[];
  /** the packages could not be read (or there were none): spec §9's price list is shown */
  isFallback: boolean;
}

export const FREE_TRIAL_CHOICE: PackageChoice = Object.freeze({
  value: "Free Trial",
  label: `${FREE_TRIAL_DURATION_LABEL} - FREE`,
  price: "FREE",
  duration: FREE_TRIAL_DURATION,
  isFree: true,
});

type PricedPackage = Pick<Package, "name" | "price" | "duration">;

/**
 * `packages`: the live list, or null while it is still loading. `failed`: the read failed.
 * Live packages (or the fallback price list when the read failed or came back empty) with
 * their specials; the free trial first unless a package is itself a free offer (spec §4).
 */
export function orderChoices(
  packages: readonly PricedPackage[] | null,
  specials: readonly Pick<Special, "package_name" | "original_price" | "special_price">[],
  failed: boolean,
): OrderChoices {
  const isFallback = failed || (packages !== null && packages.length === 0);
  const source: readonly PricedPackage[] = isFallback ? ORDER_FORM_PRICING : (packages ?? []);
  const choices = source.map((pkg): PackageChoice => {
    if (isFreePackage(pkg)) {
      return { value: pkg.name, label: `${pkg.name} - FREE`, price: "FREE", duration: FREE_TRIAL_DURATION, isFree: true };
    }
    const special = findSpecial(pkg, specials);
    const price = special ? special.special_price : pkg.price;
    const choice: PackageChoice = {
      value: pkg.name,
      label: packageOptionLabel({ name: pkg.name, price }),
      price,
      duration: pkg.duration.trim(),
      isFree: false,
    };
    if (special) choice.originalPrice = pkg.price;
    return choice;
  });
  const list = choices.some((c) => c.isFree) ? choices : [FREE_TRIAL_CHOICE, ...choices];
  return { packages: list, durations: durationOptions(source.filter((p) => !isFreePackage(p))), isFallback };
}

function sameDuration(a: string, b: string): boolean {
  if (a.trim().toLowerCase() === b.trim().toLowerCase()) return true;
  const months = monthsFromDuration(a);
  return months !== null && months === monthsFromDuration(b);
}

export interface DurationChoice {
  duration: string;
  /** the package that goes with it, when one does */
  package: string | null;
}

/**
 * What a requested duration (the selectDuration event, ?duration=) selects: the trial; else
 * the first package of that length ('monthly' and '1 Month' are the same length); else a
 * listed duration alone; else nothing (null), e.g. while the packages are still loading.
 */
export function resolveDuration(requested: string, choices: OrderChoices): DurationChoice | null {
  const value = requested.trim();
  if (!value) return null;
  if (value === FREE_TRIAL_DURATION) {
    const free = choices.packages.find((c) => c.isFree);
    return { duration: FREE_TRIAL_DURATION, package: free?.value ?? null };
  }
  const pkg = choices.packages.find((c) => !c.isFree && sameDuration(c.duration, value));
  if (pkg) return { duration: pkg.duration, package: pkg.value };
  const option = choices.durations.find((o) => sameDuration(o.value, value));
  return option ? { duration: option.value, package: null } : null;
}

/** The package the summary describes: the one chosen, else the one the chosen duration implies. */
export function chosenPackage(values: { package: string; duration: string }, choices: OrderChoices): PackageChoice | null {
  const byName = choices.packages.find((c) => c.value === values.package);
  if (byName) return byName;
  if (!values.duration) return null;
  const resolved = resolveDuration(values.duration, choices);
  return resolved?.package ? (choices.packages.find((c) => c.value === resolved.package) ?? null) : null;
}

/** 'R1,450', 'FREE'. */
export function priceText(price: number | "FREE"): string {
  return price === "FREE" ? "FREE" : formatRand(price);
}
