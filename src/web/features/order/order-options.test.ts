import { describe, expect, it } from "vitest";
import { chosenPackage, FREE_TRIAL_CHOICE, orderChoices, priceText, resolveDuration } from "./order-options";

const live = [
  { name: "Month to Month", price: 650, duration: "1 Month" },
  { name: "3 Months", price: 1650, duration: "3 Months" },
  { name: "Yearly", price: 5999, duration: "12 Months" },
];
const specials = [{ package_name: "3 Months", original_price: 1650, special_price: 1450 }];

describe("orderChoices", () => {
  it("live packages as 'Name - R{price}' with specials, the free trial first, durations from the packages", () => {
    const choices = orderChoices(live, specials, false);
    expect(choices.isFallback).toBe(false);
    expect(choices.packages.map((c) => c.label)).toEqual([
      "Free Trial (24 Hours) - FREE",
      "Month to Month - R650",
      "3 Months - R1,450",
      "Yearly - R5,999",
    ]);
    expect(choices.packages[2]).toMatchObject({ price: 1450, originalPrice: 1650, duration: "3 Months" });
    expect(choices.durations.map((d) => d.value)).toEqual(["free-trial", "1 Month", "3 Months", "12 Months"]);
  });

  it("spec §9's order-form pricing when the read failed or returned nothing; only the trial while loading", () => {
    for (const choices of [orderChoices(null, [], true), orderChoices([], [], false)]) {
      expect(choices.isFallback).toBe(true);
      expect(choices.packages.map((c) => c.label)).toEqual([
        "Free Trial (24 Hours) - FREE",
        "Month to Month - R650",
        "3 Months - R1,650",
        "6 Months - R3,150",
        "12 Months - R5,999",
        "24 Months - R10,999",
      ]);
    }
    expect(orderChoices(null, [], false).packages).toEqual([FREE_TRIAL_CHOICE]);
  });

  it("no synthetic trial when a package is itself free; that package stands for the trial", () => {
    const choices = orderChoices([{ name: "Free Day", price: 0, duration: "24 Hours" }, ...live], [], false);
    expect(choices.packages[0]).toMatchObject({ value: "Free Day", label: "Free Day - FREE", duration: "free-trial", isFree: true });
    expect(choices.packages.filter((c) => c.isFree)).toHaveLength(1);
    expect(choices.durations.map((d) => d.value)).not.toContain("24 Hours");
  });
});

describe("resolveDuration", () => {
  const choices = orderChoices(live, specials, false);
  it("free-trial selects the trial", () => {
    expect(resolveDuration("free-trial", choices)).toEqual({ duration: "free-trial", package: "Free Trial" });
  });
  it("a package duration selects the first package of that length, however it is spelt", () => {
    expect(resolveDuration("3 Months", choices)).toEqual({ duration: "3 Months", package: "3 Months" });
    expect(resolveDuration("monthly", choices)).toEqual({ duration: "1 Month", package: "Month to Month" });
    expect(resolveDuration("1 year", choices)).toEqual({ duration: "12 Months", package: "Yearly" });
  });
  it("an unknown duration selects nothing", () => {
    expect(resolveDuration("5 Months", choices)).toBeNull();
    expect(resolveDuration("", choices)).toBeNull();
  });
});

describe("chosenPackage", () => {
  const choices = orderChoices(live, specials, false);
  it("the package chosen, else the one the duration implies", () => {
    expect(chosenPackage({ package: "Yearly", duration: "" }, choices)?.price).toBe(5999);
    expect(chosenPackage({ package: "", duration: "3 Months" }, choices)?.value).toBe("3 Months");
    expect(chosenPackage({ package: "", duration: "" }, choices)).toBeNull();
  });
  it("prices read R{price} or FREE", () => {
    expect(priceText(10999)).toBe("R10,999");
    expect(priceText("FREE")).toBe("FREE");
  });
});
