import { describe, expect, it } from "vitest";
import { DEVICE_LABELS, DEVICES, durationOptions, FREE_TRIAL_DURATION, INTERNET_PLATFORM_LABELS, INTERNET_PLATFORMS } from "./options";

describe("DEVICES — spec §3 option list, in order", () => {
  it.each([
    [0, "android", "Android Phone/Tablet"],
    [1, "ios", "iPhone/iPad"],
    [2, "apple-tv", "Apple TV"],
    [3, "smart-tv-android", "Smart TV - Android"],
    [4, "smart-tv-samsung", "Smart TV - Samsung, Hisense, LG"],
    [5, "firestick", "Amazon Fire Stick"],
    [6, "android-box", "Android TV Box"],
    [7, "non-google-certified", "Non Google Certified"],
    [8, "pc", "PC/Laptop"],
  ] as const)("#%i %s: %s", (index, value, label) => {
    expect(DEVICES[index]).toEqual({ value, label });
    expect(DEVICE_LABELS[value]).toBe(label);
  });

  it("has exactly the nine spec devices", () => {
    expect(DEVICES).toHaveLength(9);
  });
});

describe("INTERNET_PLATFORMS — spec §3: fibre, wireless, 5g, lte, other", () => {
  it.each([
    ["fibre", "Fibre"],
    ["wireless", "Wireless"],
    ["5g", "5G"],
    ["lte", "LTE"],
    ["other", "Other"],
  ] as const)("%s: %s", (value, label) => {
    expect(INTERNET_PLATFORMS.find((p) => p.value === value)?.label).toBe(label);
    expect(INTERNET_PLATFORM_LABELS[value]).toBe(label);
  });

  it("keeps the spec's order", () => {
    expect(INTERNET_PLATFORMS.map((p) => p.value)).toEqual(["fibre", "wireless", "5g", "lte", "other"]);
  });
});

describe("durationOptions — spec §3: free-trial plus each package's duration", () => {
  it("puts the free trial first, then each distinct duration in package order", () => {
    const options = durationOptions([{ duration: "1 Month" }, { duration: "3 Months" }, { duration: "1 Month" }, { duration: "6 Months" }]);
    expect(options).toEqual([
      { value: FREE_TRIAL_DURATION, label: "Free Trial (24 Hours)" },
      { value: "1 Month", label: "1 Month" },
      { value: "3 Months", label: "3 Months" },
      { value: "6 Months", label: "6 Months" },
    ]);
  });

  it.each([
    ["no packages", [], ["free-trial"]],
    ["blank durations skipped", [{ duration: " " }, { duration: "12 Months" }], ["free-trial", "12 Months"]],
    ["case-only duplicates kept once", [{ duration: "3 Months" }, { duration: "3 months" }], ["free-trial", "3 Months"]],
    ["a package that is itself 'free-trial' not repeated", [{ duration: "free-trial" }], ["free-trial"]],
  ])("%s", (_, packages, values) => {
    expect(durationOptions(packages).map((o) => o.value)).toEqual(values);
  });
});
