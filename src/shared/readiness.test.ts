import { describe, expect, it } from "vitest";
import {
  assessReadiness,
  isStabilityGreen,
  meetsStabilityTarget,
  QUALITY_REQUIREMENTS,
  READINESS_LABELS,
  type Readiness,
  recommendedQuality,
  SIMULATED_RANGES,
  STABILITY_TARGETS,
  STREAM_TEST_PHASES,
  streamTestResult,
} from "./readiness";

describe("assessReadiness — spec §9 readiness rules", () => {
  // [download Mbps, ping ms, jitter ms, packet loss %, expected]
  it.each<[number, number, number, number, Readiness, string]>([
    // excellent: download ≥ 45, ping ≤ 50, jitter ≤ 10, loss ≤ 0.5 (all bounds inclusive)
    [45, 50, 10, 0.5, "excellent", "exactly on every excellent bound"],
    [94, 10, 5, 0, "excellent", "the best simulated values"],
    [44.9, 50, 10, 0.5, "good", "download just under 45"],
    [45, 51, 10, 0.5, "good", "ping just over 50"],
    [45, 50, 10.1, 0.5, "good", "jitter just over 10"],
    [45, 50, 10, 0.51, "good", "loss just over 0.5"],
    // good: download ≥ 35, ping ≤ 80, jitter ≤ 20, loss ≤ 0.8
    [35, 80, 20, 0.8, "good", "exactly on every good bound"],
    [34.9, 80, 20, 0.8, "fair", "download just under 35"],
    [35, 81, 20, 0.8, "fair", "ping just over 80"],
    [35, 80, 21, 0.8, "fair", "jitter just over 20"],
    [35, 80, 20, 0.81, "fair", "loss just over 0.8"],
    // fair: download ≥ 25, ping ≤ 120, jitter ≤ 25, loss ≤ 1 — but loss 1 is already poor
    [25, 120, 25, 0.99, "fair", "on the fair bounds with loss under 1"],
    [24.9, 120, 25, 0.5, "poor", "download just under 25: none of the tiers"],
    [25, 121, 25, 0.5, "poor", "ping just over 120"],
    [25, 120, 26, 0.5, "poor", "jitter just over 25"],
    // poor first: download < 10, loss ≥ 1, jitter ≥ 30, ping ≥ 150
    [25, 120, 25, 1, "poor", "loss of 1% is poor even though fair allows ≤ 1"],
    [9.99, 10, 5, 0, "poor", "download under 10 Mbps"],
    [10, 10, 5, 0, "poor", "10 Mbps is not poor by rule 1 but reaches no tier"],
    [100, 10, 5, 1, "poor", "1% loss"],
    [100, 10, 30, 0, "poor", "30 ms jitter"],
    [100, 150, 5, 0, "poor", "150 ms ping"],
    [100, 149, 29, 0.99, "poor", "just inside every poor bound but outside fair"],
    [Number.NaN, 10, 5, 0, "poor", "a missing measurement"],
  ])("%s Mbps / %s ms / %s ms / %s%% → %s (%s)", (download, ping, jitter, packetLoss, expected) => {
    expect(assessReadiness({ download, ping, jitter, packetLoss })).toBe(expected);
  });
});

describe("READINESS_LABELS", () => {
  it.each([
    ["excellent", "Excellent"],
    ["good", "Good"],
    ["fair", "Fair"],
    ["poor", "Poor"],
  ] as const)("%s → %s (the toast 'IPTV Status: {readiness}')", (key, label) => {
    expect(READINESS_LABELS[key]).toBe(label);
  });
});

describe("QUALITY_REQUIREMENTS — spec §9: SD 10-15 Mbps, HD 15-25, Full HD 25-35, 4K 35+", () => {
  it("lists the four tiers in order", () => {
    expect(QUALITY_REQUIREMENTS).toEqual([
      { label: "SD", min: 10, max: 15 },
      { label: "HD", min: 15, max: 25 },
      { label: "Full HD", min: 25, max: 35 },
      { label: "4K", min: 35, max: null },
    ]);
  });

  it.each([
    [94, "4K"],
    [35, "4K"],
    [34.9, "Full HD"],
    [25, "Full HD"],
    [24.9, "HD"],
    [15, "HD"],
    [14.9, "SD"],
    [10, "SD"],
    [9.9, "Not enough for streaming"],
    [0, "Not enough for streaming"],
  ])("recommendedQuality(%s) → %s", (mbps, quality) => {
    expect(recommendedQuality(mbps)).toBe(quality);
  });
});

describe("stability — spec §9: targets loss < 1%, jitter < 30 ms, latency < 150 ms; green at ≤ 0.5, ≤ 10, ≤ 50", () => {
  it("holds the spec's numbers", () => {
    expect(STABILITY_TARGETS.packetLoss).toMatchObject({ under: 1, green: 0.5 });
    expect(STABILITY_TARGETS.jitter).toMatchObject({ under: 30, green: 10 });
    expect(STABILITY_TARGETS.ping).toMatchObject({ under: 150, green: 50 });
  });

  it.each([
    ["packetLoss", 0.5, true],
    ["packetLoss", 0.51, false],
    ["jitter", 10, true],
    ["jitter", 10.5, false],
    ["ping", 50, true],
    ["ping", 51, false],
  ] as const)("isStabilityGreen(%s, %s) → %s", (metric, value, green) => {
    expect(isStabilityGreen(metric, value)).toBe(green);
  });

  it.each([
    ["packetLoss", 0.99, true],
    ["packetLoss", 1, false],
    ["jitter", 29, true],
    ["jitter", 30, false],
    ["ping", 149, true],
    ["ping", 150, false],
  ] as const)("meetsStabilityTarget(%s, %s) → %s", (metric, value, ok) => {
    expect(meetsStabilityTarget(metric, value)).toBe(ok);
  });
});

describe("STREAM_TEST_PHASES — spec §4: download 25%, latency 50%, jitter 75%, packet loss 100%", () => {
  it.each([
    [0, "download", 25],
    [1, "latency", 50],
    [2, "jitter", 75],
    [3, "packetLoss", 100],
  ] as const)("phase %i is %s at %i%%", (index, key, progress) => {
    expect(STREAM_TEST_PHASES[index]).toMatchObject({ key, progress });
    expect(STREAM_TEST_PHASES[index].label).toMatch(/\.\.\.$/);
  });

  it("starts with 'Testing download speed...'", () => {
    expect(STREAM_TEST_PHASES[0].label).toBe("Testing download speed...");
  });
});

describe("SIMULATED_RANGES — spec §9: download 15-94, ping 10-109, jitter 5-44, loss 0-3, ~2 s a phase", () => {
  it.each([
    ["download", 15, 94],
    ["ping", 10, 109],
    ["jitter", 5, 44],
    ["packetLoss", 0, 3],
  ] as const)("%s %s-%s", (key, min, max) => {
    expect(SIMULATED_RANGES[key]).toMatchObject({ min, max });
  });

  it("each phase takes about 2 s", () => {
    expect(SIMULATED_RANGES.phaseMs).toBe(2000);
  });
});

describe("streamTestResult", () => {
  it("completes the spec §3 result from four measurements", () => {
    expect(streamTestResult({ download: 40, ping: 60, jitter: 15, packetLoss: 0.2 })).toEqual({
      download: 40,
      ping: 60,
      jitter: 15,
      packetLoss: 0.2,
      iptvReadiness: "good",
      recommendedQuality: "4K",
      status: "complete",
    });
  });
});
