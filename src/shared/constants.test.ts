import { describe, expect, it } from "vitest";
import {
  eftMissing,
  eftReady,
  FREE_TRIAL_HOURS,
  HERO_DURATION_EVENT_DELAY_MS,
  NOTIFICATION_PROMPT_DELAY_MS,
  payWaysWords,
  portalPayWays,
  SETTING_PLACEHOLDER,
  SPECIAL_POPUP_DELAY_MS,
  SPECIAL_POPUP_SESSION_FLAG,
  SUPPORT_HOURS,
  TESTIMONIAL_ROTATION_MS,
  TOAST_OPTIONS,
} from "./constants";

describe("spec §9 business constants", () => {
  it.each([
    ["free trial: 24 hours", FREE_TRIAL_HOURS, 24],
    ["special popup delay: 1 s", SPECIAL_POPUP_DELAY_MS, 1000],
    ["hero duration event delay: 500 ms", HERO_DURATION_EVENT_DELAY_MS, 500],
    ["testimonial rotation: 6 s", TESTIMONIAL_ROTATION_MS, 6000],
    ["notification prompt: 3 s after first run (§4)", NOTIFICATION_PROMPT_DELAY_MS, 3000],
  ])("%s", (_, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it("support hours: 9am-8pm, 7 days", () => {
    expect(SUPPORT_HOURS).toBe("9am-8pm, 7 days a week");
  });

  it("the popup is remembered with the session flag popupShownThisSession (§4)", () => {
    expect(SPECIAL_POPUP_SESSION_FLAG).toBe("popupShownThisSession");
  });

  it("toasts: top-right, expanded, at most 5 visible, 4000 ms, rich colours", () => {
    expect(TOAST_OPTIONS).toEqual({ position: "top-right", expand: true, visibleToasts: 5, duration: 4000, richColors: true });
  });
});

describe("eftReady: no placeholder ever reaches a customer (issue 28)", () => {
  const REAL = {
    eft_bank_name: "FNB",
    eft_account_name: "Owner (Pty) Ltd",
    eft_account_number: "62000000001",
    eft_branch_code: "250655",
    eft_account_type: "Cheque",
  };
  it.each<[string, Record<string, string>, boolean, string[]]>([
    ["all real", REAL, true, []],
    ["the account type left empty", { ...REAL, eft_account_type: "" }, true, []],
    ["the account type still the placeholder", { ...REAL, eft_account_type: SETTING_PLACEHOLDER }, false, ["eft_account_type"]],
    ["a placeholder typed with other spaces and case", { ...REAL, eft_bank_name: " set in admin › settings " }, false, ["eft_bank_name"]],
    ["a required one empty", { ...REAL, eft_branch_code: " " }, false, ["eft_branch_code"]],
  ])("%s", (_name, settings, ready, missing) => {
    expect(eftReady(settings)).toBe(ready);
    expect(eftMissing(settings)).toEqual(missing);
    expect(portalPayWays(settings)).toBe(ready ? "by card or EFT" : "by card");
  });
});

describe("payWaysWords: every way to pay that is on, for a message", () => {
  const payfast = { id: "payfast", name: "PayFast" } as const;
  const ozow = { id: "ozow", name: "Ozow" } as const;
  const yoco = { id: "yoco", name: "Yoco" } as const;
  it.each([
    [{ card: "ikhokha", eft: true, providers: [payfast, ozow, yoco] }, "by card, PayFast, Ozow, Yoco or EFT"],
    [{ card: "sandbox", eft: false, providers: [] }, "by card"],
    [{ card: "ikhokha", eft: true, providers: [] }, "by card or EFT"],
    [{ card: "off", eft: false, providers: [payfast] }, "by PayFast"],
    [{ card: "off", eft: true, providers: [ozow] }, "by Ozow or EFT"],
    [{ card: "off", eft: false, providers: [] }, "by arrangement with us"],
  ] as const)("%j → %s", (methods, words) => {
    expect(payWaysWords(methods)).toBe(words);
  });
});
