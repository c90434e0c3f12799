// The stream test's verdicts (spec §9): readiness from the four measurements, the quality the
// download speed supports, the stability targets and the test's phases.

export type Readiness = "excellent" | "good" | "fair" | "poor";

export interface StreamMeasurements {
  /** Mbps */
  download: number;
  /** ms */
  ping: number;
  /** ms */
  jitter: number;
  /** percent */
  packetLoss: number;
}

/** Spec §3 stream test result. */
export interface StreamTestResult extends StreamMeasurements {
  iptvReadiness: Readiness;
  recommendedQuality: string;
  status: string;
}

export const READINESS_LABELS: Record<Readiness, string> = {
  excellent: "Excellent",
  good: "Good",
  fair: "Fair",
  poor: "Poor",
};

/**
 * Spec §9, in its order: poor if download < 10 Mbps, loss ≥ 1 %, jitter ≥ 30 ms or ping ≥ 150 ms;
 * excellent if download ≥ 45, ping ≤ 50, jitter ≤ 10, loss ≤ 0.5; good if download ≥ 35,
 * ping ≤ 80, jitter ≤ 20, loss ≤ 0.8; fair if download ≥ 25, ping ≤ 120, jitter ≤ 25, loss ≤ 1;
 * otherwise poor. A missing (NaN) measurement fails every test, so it lands on poor.
 */
export function assessReadiness({ download, ping, jitter, packetLoss }: StreamMeasurements): Readiness {
  if (download < 10 || packetLoss >= 1 || jitter >= 30 || ping >= 150) return "poor";
  if (download >= 45 && ping <= 50 && jitter <= 10 && packetLoss <= 0.5) return "excellent";
  if (download >= 35 && ping <= 80 && jitter <= 20 && packetLoss <= 0.8) return "good";
  if (download >= 25 && ping <= 120 && jitter <= 25 && packetLoss <= 1) return "fair";
  return "poor";
}

export interface QualityRequirement {
  label: string;
  /** Mbps */
  min: number;
  /** Mbps; null for "and up" */
  max: number | null;
}

/** Spec §9 displayed requirements: SD 10-15 Mbps, HD 15-25, Full HD 25-35, 4K 35+. */
export const QUALITY_REQUIREMENTS: readonly QualityRequirement[] = Object.freeze([
  { label: "SD", min: 10, max: 15 },
  { label: "HD", min: 15, max: 25 },
  { label: "Full HD", min: 25, max: 35 },
  { label: "4K", min: 35, max: null },
]);

export const NOT_ENOUGH_FOR_STREAMING = "Not enough for streaming";

/**
 * The best quality whose minimum the download speed reaches (the requirements table read
 * from the top: 35+ → 4K, 25+ → Full HD, 15+ → HD, 10+ → SD). Below SD's 10 Mbps the spec
 * shows no tier, so the answer says plainly that it is not enough.
 */
export function recommendedQuality(downloadMbps: number): string {
  for (let i = QUALITY_REQUIREMENTS.length - 1; i >= 0; i--) {
    if (downloadMbps >= QUALITY_REQUIREMENTS[i].min) return QUALITY_REQUIREMENTS[i].label;
  }
  return NOT_ENOUGH_FOR_STREAMING;
}

export type StabilityMetric = "packetLoss" | "jitter" | "ping";

export interface StabilityTarget {
  label: string;
  unit: string;
  /** the target: values strictly below it are acceptable */
  under: number;
  /** values at or below this show green */
  green: number;
}

/**
 * Spec §9: targets loss under 1 %, jitter under 30 ms, latency under 150 ms; shown green at
 * loss 0.5 or less, jitter 10 or less, ping 50 or less.
 */
export const STABILITY_TARGETS: Readonly<Record<StabilityMetric, StabilityTarget>> = Object.freeze({
  packetLoss: { label: "Packet loss", unit: "%", under: 1, green: 0.5 },
  jitter: { label: "Jitter", unit: "ms", under: 30, green: 10 },
  ping: { label: "Latency", unit: "ms", under: 150, green: 50 },
});

export function isStabilityGreen(metric: StabilityMetric, value: number): boolean {
  return value <= STABILITY_TARGETS[metric].green;
}

/** Whether a value meets the stability target (strictly under it). */
export function meetsStabilityTarget(metric: StabilityMetric, value: number): boolean {
  return value < STABILITY_TARGETS[metric].under;
}

export type StreamTestPhaseKey = "download" | "latency" | "jitter" | "packetLoss";

/** Spec §4: four phases in order — download 25 %, latency 50 %, jitter 75 %, packet loss 100 %. */
export const STREAM_TEST_PHASES: readonly { key: StreamTestPhaseKey; label: string; progress: number }[] = Object.freeze([
  { key: "download", label: "Testing download speed...", progress: 25 },
  { key: "latency", label: "Testing latency...", progress: 50 },
  { key: "jitter", label: "Measuring jitter...", progress: 75 },
  { key: "packetLoss", label: "Checking packet loss...", progress: 100 },
]);

/**
 * Spec §9: the original test was simulated with random values in these ranges, each phase
 * taking about 2 s. Kept for reference (and for a demo mode); real measurements replace them.
 */
export const SIMULATED_RANGES = Object.freeze({
  download: { min: 15, max: 94, unit: "Mbps" },
  ping: { min: 10, max: 109, unit: "ms" },
  jitter: { min: 5, max: 44, unit: "ms" },
  packetLoss: { min: 0, max: 3, unit: "%" },
  phaseMs: 2000,
});

/** A complete result from four measurements. */
export function streamTestResult(m: StreamMeasurements): StreamTestResult {
  return { ...m, iptvReadiness: assessReadiness(m), recommendedQuality: recommendedQuality(m.download), status: "complete" };
}
