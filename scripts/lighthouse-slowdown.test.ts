import { describe, expect, it } from "vitest";
import { cpuSlowdownFor, PHONE_INDEX } from "./lighthouse-slowdown";

describe("cpuSlowdownFor", () => {
  it("slows the host Lighthouse's default was made for by its default 4×", () => {
    expect(cpuSlowdownFor(1750)).toBe(4);
  });

  it("slows a faster host more and a slower one less, so each emulates the same phone", () => {
    expect(cpuSlowdownFor(3000)).toBe(6.9);
    expect(cpuSlowdownFor(1000)).toBe(2.3);
    // the emulated phone's index, host ÷ slowdown, within the rounding of the slowdown (3 %)
    for (const host of [900, 1200, 2400, 3100]) expect(Math.abs(host / cpuSlowdownFor(host) / PHONE_INDEX - 1)).toBeLessThan(0.03);
  });

  it("stays within 1× and 20×", () => {
    expect(cpuSlowdownFor(200)).toBe(1);
    expect(cpuSlowdownFor(50_000)).toBe(20);
  });

  it("falls back to Lighthouse's default when the benchmark gave nothing usable", () => {
    expect(cpuSlowdownFor(Number.NaN)).toBe(4);
    expect(cpuSlowdownFor(0)).toBe(4);
  });
});
