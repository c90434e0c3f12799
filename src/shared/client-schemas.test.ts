import { describe, expect, it } from "vitest";
import {
  daysLeft,
  EXPIRING_WITHIN_DAYS,
  guideSteps,
  passwordChangeSchema,
  profilePatchSchema,
  renewRequestSchema,
  subscriptionStatus,
} from "./client-schemas";

const now = new Date("2026-11-22T10:00:00Z");
const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000);

describe("subscriptionStatus — the lifecycle's status; only an active term ending within 7 days reads 'expiring'", () => {
  it("calls 7 days soon", () => {
    expect(EXPIRING_WITHIN_DAYS).toBe(7);
  });

  it.each([
    ["active", inDays(30), "active"],
    ["active", inDays(7.01), "active"],
    ["active", inDays(7), "expiring"], // exactly 7 days left
    ["active", inDays(0.5), "expiring"],
    // the end has passed but the scheduled job has not moved the row yet: read as stored
    ["active", inDays(-0.01), "active"],
    ["active", null, "active"],
    ["active", inDays(3).toISOString(), "expiring"],
    // a trial is short: it stays a trial to its end, and after it until the job moves it
    ["trial", inDays(0.5), "trial"],
    ["trial", inDays(8), "trial"],
    ["trial", inDays(-1), "trial"],
    ["pending", null, "pending"],
    ["pending", inDays(3), "pending"],
    ["grace", inDays(-1), "grace"],
    ["grace", inDays(-40), "grace"],
    ["expired", inDays(-30), "expired"],
    ["expired", inDays(30), "expired"],
    ["suspended", inDays(-3), "suspended"],
    ["suspended", inDays(3), "suspended"],
    // a status the lifecycle does not know reads as pending, never as watching
    ["inactive", inDays(30), "pending"],
    ["", null, "pending"],
  ] as const)("%s ending %s → %s", (status, end, expected) => {
    expect(subscriptionStatus({ status, subscription_end: end }, now)).toBe(expected);
  });
});

describe("daysLeft", () => {
  it("counts a part day as a day, 0 once ended, null without an end", () => {
    expect(daysLeft(inDays(30), now)).toBe(30);
    expect(daysLeft(inDays(0.5), now)).toBe(1);
    expect(daysLeft(inDays(-2), now)).toBe(0);
    expect(daysLeft(null, now)).toBeNull();
    expect(daysLeft(inDays(2).toISOString(), now)).toBe(2);
  });
});

describe("guideSteps", () => {
  it("splits a guide into steps without the numbering typed by the admin", () => {
    expect(guideSteps("1. Open the store\n\n2) Search for the app\nStep 3: Install it\n  Sign in  ")).toEqual([
      "Open the store",
      "Search for the app",
      "Install it",
      "Sign in",
    ]);
    expect(guideSteps(null)).toEqual([]);
  });
});

describe("portal forms", () => {
  it("profile patch keeps only the client's own fields", () => {
    const parsed = profilePatchSchema.parse({ full_name: " Thabo ", id: "x", status: "active", username: "y", package_id: "z" });
    expect(parsed).toEqual({ full_name: "Thabo" });
    expect(profilePatchSchema.safeParse({ email: "" }).success).toBe(true);
    expect(profilePatchSchema.safeParse({ email: "nope" }).success).toBe(false);
  });

  it("renew needs a method; the package is optional", () => {
    expect(renewRequestSchema.parse({ method: "eft", packageId: "" })).toEqual({ method: "eft" });
    expect(renewRequestSchema.safeParse({ method: "cash" }).error?.issues[0].message).toBe("Choose card or EFT");
  });

  it("a new password must differ from the current one", () => {
    const same = passwordChangeSchema.safeParse({ currentPassword: "Same password 1", newPassword: "Same password 1" });
    expect(same.error?.issues[0]).toMatchObject({
      path: ["newPassword"],
      message: "Choose a new password that is different from your current one",
    });
  });
});
