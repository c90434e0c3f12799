import { describe, expect, it } from "vitest";
import type { ComponentStatus } from "./api";
import { overallStatus, STATUS_LABELS, worstStatus } from "./status";

const entries = (...statuses: string[]) => statuses.map((status) => ({ status }));

describe("overallStatus — spec §4", () => {
  it.each([
    ["loading (undefined)", undefined, "stable"],
    ["loading (null)", null, "stable"],
    ["empty", entries(), "stable"],
    ["all operational", entries("operational", "operational"), "stable"],
    ["degraded only", entries("operational", "degraded"), "stable"],
    ["'stable' entries", entries("stable"), "stable"],
    ["any in maintenance", entries("operational", "maintenance"), "maintenance"],
    ["any down", entries("operational", "down"), "down"],
    ["down beats maintenance", entries("maintenance", "down", "operational"), "down"],
    ["unknown words count as fine", entries("unknown"), "stable"],
  ])("%s → %s", (_, list, overall) => {
    expect(overallStatus(list)).toBe(overall);
  });
});

describe("worstStatus — operational < degraded < maintenance < down", () => {
  const order: ComponentStatus[] = ["operational", "degraded", "maintenance", "down"];
  const pairs = order.flatMap((a, i) => order.map((b, j) => [a, b, order[Math.max(i, j)]] as const));

  it.each(pairs)("worstStatus(%s, %s) → %s", (a, b, worst) => {
    expect(worstStatus(a, b)).toBe(worst);
  });

  it.each([
    [null, "degraded", "degraded"],
    ["down", null, "down"],
    [null, null, null],
  ] as const)("with no data: worstStatus(%s, %s) → %s", (a, b, worst) => {
    expect(worstStatus(a, b)).toBe(worst);
  });

  it("folds a day's checks to its worst", () => {
    const day: ComponentStatus[] = ["operational", "degraded", "operational"];
    expect(day.reduce<ComponentStatus | null>(worstStatus, null)).toBe("degraded");
  });
});

describe("STATUS_LABELS", () => {
  it.each(["operational", "degraded", "maintenance", "down", "stable"] as const)("has a label for %s", (status) => {
    expect(STATUS_LABELS[status]).toMatch(/^[A-Z]/);
  });
});
