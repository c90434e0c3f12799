import { describe, expect, it } from "vitest";
import { daysLeft, guideSteps, passwordChangeSchema, profilePatchSchema, renewRequestSchema, subscriptionStatus } from "./client-schemas";

const now = new Date("2026-11-22T10:00:00Z");
const inDays = (d: number) => new Date(now.getTime() + d * 86_400_000);

describe("subscriptionStatus", () => {
  it.each([
    ["active", inDays(30), "active"],
    ["active", inDays(7), "expiring"],
    ["trial", inDays(0.5), "expiring"],
    ["trial", inDays(8), "trial"],
    ["active", inDays(-0.01), "expired"],
    ["expired", inDays(30), "expired"],
    ["suspended", inDays(-3), "suspended"],
    ["active", null, "active"],
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
