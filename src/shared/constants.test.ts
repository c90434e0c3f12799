import { describe, expect, it } from "vitest";
import {
  FREE_TRIAL_HOURS,
  HERO_DURATION_EVENT_DELAY_MS,
  NOTIFICATION_PROMPT_DELAY_MS,
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
