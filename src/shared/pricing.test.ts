import { describe, expect, it } from "vitest";
import type { Special } from "./api";
import {
  buildPlans,
  FALLBACK_PACKAGES,
  FREE_TRIAL_PLAN,
  findSpecial,
  isFreePackage,
  isFreePlan,
  monthsFromDuration,
  ORDER_FORM_PRICING,
  packageMonths,
  packageOptionLabel,
  SPECIAL_PRICE_TOLERANCE,
  specialMatchesPackage,
  specialNameCandidates,
} from "./pricing";

const special = (package_name: string, original_price: number, special_price: number): Special => ({
  id: `s-${package_name}-${original_price}`,
  package_name,
  original_price,
  special_price,
  title: "",
  description: "",
});

const pkg = (name: string, price: number, duration: string, extra: Partial<(typeof FALLBACK_PACKAGES)[number]> = {}) => ({
  ...FALLBACK_PACKAGES[0],
  id: `id-${name}`,
  name,
  price,
  duration,
  is_featured: false,
  ...extra,
});

describe("FALLBACK_PACKAGES — spec §9: Month to Month R200 (1 Month), 3 Months R500 (featured), 6 Months R900", () => {
  it.each([
    [0, "fallback-1", "Month to Month", 200, "1 Month", false],
    [1, "fallback-2", "3 Months", 500, "3 Months", true],
    [2, "fallback-3", "6 Months", 900, "6 Months", false],
  ])("#%i %s: %s R%s %s featured=%s", (i, id, name, price, duration, featured) => {
    const p = FALLBACK_PACKAGES[i];
    expect(p).toMatchObject({ id, name, price, duration, is_featured: featured, is_active: true });
    expect(p.features.length).toBeGreaterThan(0);
    expect(p.description).not.toBe("");
  });

  it("has exactly three packages", () => {
    expect(FALLBACK_PACKAGES).toHaveLength(3);
  });

  it("shows the spec's option text 'Month to Month - R200'", () => {
    expect(packageOptionLabel(FALLBACK_PACKAGES[0])).toBe("Month to Month - R200");
  });

  it("cannot be changed in place by accident", () => {
    expect(() => (FALLBACK_PACKAGES as unknown as unknown[]).reverse()).toThrow(TypeError);
  });
});

describe("ORDER_FORM_PRICING — spec §9: 650, 1650, 3150, 5999, 10999", () => {
  it.each([
    ["Month to Month", 650, "1 Month", "Month to Month - R650"],
    ["3 Months", 1650, "3 Months", "3 Months - R1,650"],
    ["6 Months", 3150, "6 Months", "6 Months - R3,150"],
    ["12 Months", 5999, "12 Months", "12 Months - R5,999"],
    ["24 Months", 10999, "24 Months", "24 Months - R10,999"],
  ])("%s R%s (%s)", (name, price, duration, label) => {
    const row = ORDER_FORM_PRICING.find((p) => p.name === name);
    expect(row).toEqual({ name, price, duration });
    expect(packageOptionLabel(row!)).toBe(label);
  });

  it("keeps the spec's order", () => {
    expect(ORDER_FORM_PRICING.map((p) => p.price)).toEqual([650, 1650, 3150, 5999, 10999]);
  });
});

describe("monthsFromDuration", () => {
  it.each([
    ["1 Month", 1],
    ["3 Months", 3],
    ["6 Months", 6],
    ["12 months", 12],
    ["24 MONTHS", 24],
    ["1 Year", 12],
    ["2 Years", 24],
    ["12-month", 12],
    [" 3 Months ", 3],
    ["Month to Month", 1],
    ["24 Hours", null],
    ["free-trial", null],
    ["0 Months", null],
    ["", null],
  ])("%j → %s", (duration, months) => {
    expect(monthsFromDuration(duration)).toBe(months);
  });
});

describe("packageMonths — duration_months, else what the duration text or the name says", () => {
  it.each([
    ["duration_months 3", { duration_months: 3, duration: "1 Month", name: "Month to Month" }, 3],
    ["duration_months wins over the text", { duration_months: 12, duration: "6 Months" }, 12],
    ["duration_months 0 → the duration text", { duration_months: 0, duration: "6 Months" }, 6],
    ["no duration_months → the duration text", { duration_months: null, duration: "1 Year" }, 12],
    ["negative duration_months → the duration text", { duration_months: -1, duration: "3 Months" }, 3],
    ["no usable duration → the name", { duration_months: null, duration: "", name: "Month to Month" }, 1],
    ["neither duration nor name given", { duration_months: null }, null],
    ["a free trial ('24 Hours', 'Free Trial')", { duration_months: 0, duration: "24 Hours", name: "Free Trial" }, null],
    ["no package", null, null],
    ["undefined", undefined, null],
  ])("%s", (_, pkg, months) => {
    expect(packageMonths(pkg)).toBe(months);
  });

  it.each(FALLBACK_PACKAGES.map((p) => [p.name, p.duration_months] as const))("fallback %s → %i", (name, months) => {
    expect(packageMonths(FALLBACK_PACKAGES.find((p) => p.name === name))).toBe(months);
  });
});

describe("special name rules — spec §4", () => {
  it.each([
    // rule 1: the package name, exactly
    ["Month to Month", "1 Month", "Month to Month", true],
    ["Gold Plan", "2 Months", "Gold Plan", true],
    ["Gold Plan", "2 Months", "gold plan", false],
    // rule 2: '{N} Month(s)' built from the duration
    ["Month to Month", "1 Month", "1 Month", true],
    ["Quarterly", "3 Months", "3 Months", true],
    ["Gold Plan", "2 Months", "2 Months", true],
    ["Annual", "1 Year", "12 Months", true],
    // rule 3: any letter case for 1, 3, 6, 12 and 24 months
    ["Month to Month", "1 Month", "1 month", true],
    ["Month to Month", "1 Month", "1 MONTH", true],
    ["Quarterly", "3 Months", "3 months", true],
    ["Half year", "6 Months", "6 MONTHS", true],
    ["Annual", "12 Months", "12 months", true],
    ["Two years", "24 Months", "24 months", true],
    // outside the list of five, case counts
    ["Gold Plan", "2 Months", "2 months", false],
    // a wrong month count or an unrelated name never matches
    ["Month to Month", "1 Month", "3 Months", false],
    ["Month to Month", "1 Month", "1 Months", false],
    ["Free Trial", "24 Hours", "24 Hours", false],
    ["Free Trial", "24 Hours", "1 Month", false],
  ])("package %j (%s) ← special %j: %s", (name, duration, specialName, matches) => {
    expect(specialMatchesPackage({ name, duration }, specialName)).toBe(matches);
  });

  it.each([
    ["Month to Month", "1 Month", ["Month to Month", "1 Month", "1 month"]],
    ["3 Months", "3 Months", ["3 Months", "3 months"]],
    ["Gold Plan", "2 Months", ["Gold Plan", "2 Months"]],
    ["Annual", "1 Year", ["Annual", "12 Months", "12 months"]],
    ["Free Trial", "24 Hours", ["Free Trial"]],
  ])("candidates for %j (%s)", (name, duration, names) => {
    expect(specialNameCandidates({ name, duration })).toEqual(names);
  });

  it("every candidate name matches its package", () => {
    for (const p of FALLBACK_PACKAGES) for (const n of specialNameCandidates(p)) expect(specialMatchesPackage(p, n)).toBe(true);
  });
});

describe("findSpecial — name rules and original_price within 0.01 (spec §9 tolerance)", () => {
  it("uses the spec's tolerance", () => {
    expect(SPECIAL_PRICE_TOLERANCE).toBe(0.01);
  });

  it.each([
    [650, 650, true],
    [650, 650.01, true], // within 0.01
    [650, 649.99, true],
    [650, 650.005, true],
    [0.3, 0.29, true], // float noise (0.3 - 0.29 > 0.01 in binary) does not decide
    [650, 650.02, false], // outside
    [650, 649.98, false],
    [650, 1650, false],
  ])("package R%s, special original R%s → %s", (price, original, found) => {
    const s = special("3 Months", original, 0.1);
    expect(findSpecial(pkg("3 Months", price, "3 Months"), [s])).toBe(found ? s : null);
  });

  it("needs the name to match as well as the price", () => {
    expect(findSpecial(pkg("3 Months", 500, "3 Months"), [special("6 Months", 500, 400)])).toBeNull();
  });

  it("takes the first matching special in the order given", () => {
    const first = special("3 months", 500, 450);
    const second = special("3 Months", 500, 400);
    expect(findSpecial(pkg("3 Months", 500, "3 Months"), [special("6 Months", 900, 800), first, second])).toBe(first);
  });

  it.each([
    ["equal to the original", 500],
    ["above the original", 550],
    ["negative", -1],
  ])("ignores a special whose price is %s", (_, specialPrice) => {
    expect(findSpecial(pkg("3 Months", 500, "3 Months"), [special("3 Months", 500, specialPrice)])).toBeNull();
  });
});

describe("buildPlans", () => {
  const packages = [
    pkg("Month to Month", 650, "1 Month"),
    pkg("3 Months", 1650, "3 Months", { is_featured: true, description: "Quarter", features: ["HD"] }),
    pkg("6 Months", 3150, "6 Months"),
  ];

  it("adds the Free Trial plan at the top when no package is free (spec §4)", () => {
    const plans = buildPlans(packages, []);
    expect(plans.map((p) => p.period)).toEqual(["Free Trial", "Month to Month", "3 Months", "6 Months"]);
    expect(plans[0]).toMatchObject({ duration: "24 Hours", price: "FREE", note: "Not on Sport Days", popular: false, hasSpecial: false });
    expect(plans[0].packageId).toBeUndefined();
  });

  it.each([
    ["'free' in the name", pkg("FREE Taster", 99, "1 Month")],
    ["'free' inside a word, any case", pkg("Carefree Month", 99, "1 Month")],
    ["a price of 0", pkg("Starter", 0, "1 Month")],
  ])("does not add the Free Trial plan when a package has %s", (_, free) => {
    const plans = buildPlans([...packages, free], []);
    expect(plans.some((p) => p.packageName === "Free Trial")).toBe(false);
    expect(plans).toHaveLength(4);
  });

  it("maps each package to a plan in the given order", () => {
    const [, , quarter] = buildPlans(packages, []);
    expect(quarter).toEqual({
      period: "3 Months",
      duration: "3 Months",
      price: 1650,
      popular: true,
      hasSpecial: false,
      features: ["HD"],
      description: "Quarter",
      packageName: "3 Months",
      packageId: "id-3 Months",
    });
  });

  it("applies a special: special price shown, package price struck through, 'Save R{difference}'", () => {
    const plans = buildPlans(packages, [special("3 months", 1650, 1500)]);
    expect(plans[2]).toMatchObject({ price: 1500, originalPrice: 1650, hasSpecial: true, note: "Save R150", popular: true });
    expect(plans[1]).toMatchObject({ price: 650, hasSpecial: false });
    expect(plans[1].originalPrice).toBeUndefined();
    expect(plans[1].note).toBeUndefined();
  });

  it.each([
    [10999, 9999, "Save R1,000"],
    [650, 599.5, "Save R50.50"],
    [0.3, 0.1, "Save R0.20"],
  ])("package R%s on special R%s → %s", (price, specialPrice, note) => {
    const [, plan] = buildPlans([pkg("24 Months", price, "24 Months")], [special("24 Months", price, specialPrice)]);
    expect(plan.note).toBe(note);
  });

  it("leaves a special outside the 0.01 tolerance unapplied", () => {
    const [, plan] = buildPlans([pkg("3 Months", 1650, "3 Months")], [special("3 Months", 1650.02, 1500)]);
    expect(plan).toMatchObject({ price: 1650, hasSpecial: false });
  });

  it("works on the fallback packages", () => {
    const plans = buildPlans(FALLBACK_PACKAGES, []);
    expect(plans.map((p) => [p.period, p.price, p.popular])).toEqual([
      ["Free Trial", "FREE", false],
      ["Month to Month", 200, false],
      ["3 Months", 500, true],
      ["6 Months", 900, false],
    ]);
  });

  it("does not share arrays with its inputs or the Free Trial constant", () => {
    const plans = buildPlans(packages, []);
    plans[0].features.push("x");
    plans[2].features.push("x");
    expect(FREE_TRIAL_PLAN.features).not.toContain("x");
    expect(packages[1].features).toEqual(["HD"]);
  });
});

describe("isFreePlan / isFreePackage", () => {
  it.each([
    ["FREE" as const, true],
    [0, true],
    [200, false],
  ])("plan price %s → %s", (price, free) => {
    expect(isFreePlan({ price })).toBe(free);
  });

  it.each([
    ["Free Trial", 0, true],
    ["Weekend free pass", 50, true],
    ["Starter", 0, true],
    ["Month to Month", 200, false],
  ])("package %j R%s → %s", (name, price, free) => {
    expect(isFreePackage({ name, price })).toBe(free);
  });

  it("the Free Trial plan is free", () => {
    expect(isFreePlan(FREE_TRIAL_PLAN)).toBe(true);
  });
});
