// The CPU slowdown that makes a host the phone Lighthouse means to emulate (bench-lighthouse.ts).
// Lighthouse's fixed 4× was chosen for a high-end desktop host, benchmark index 1,500–2,000
// (its docs/throttling.md, "Calibrating the CPU slowdown"): the phone is that host slowed 4×.
// Slowing every host by its own index ÷ that phone's index emulates the same phone on each.

/** Lighthouse's default slowdown and the middle of the host bracket it was chosen for. */
const DEFAULT_SLOWDOWN = 4;
const DEFAULT_HOST_INDEX = 1750;

/** The benchmark index of the emulated phone: 437.5. */
export const PHONE_INDEX = DEFAULT_HOST_INDEX / DEFAULT_SLOWDOWN;

/** Host index ÷ 437.5, to one decimal, within the 1–20× Lighthouse's table spans. */
export function cpuSlowdownFor(hostIndex: number): number {
  if (!Number.isFinite(hostIndex) || hostIndex <= 0) return DEFAULT_SLOWDOWN;
  return Math.round(Math.min(20, Math.max(1, hostIndex / PHONE_INDEX)) * 10) / 10;
}
