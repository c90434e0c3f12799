// Money as the storefront shows it (spec §1: "R{price}") and as providers want it (integer
// cents). One format everywhere (docs/architecture.md, "House style"): comma thousands separator, no space after R.

/** '1650' → '1,650'. Plain string work: an Intl number formatter's first use costs a phone tens of milliseconds. */
function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, ",");
}

/**
 * R650, R1,650, R10,999, R199.50; negative amounts as -R150.
 * A value that is not a finite number shows as "R—" so a bad value is visible without
 * taking the page down.
 */
export function formatRand(value: number): string {
  if (!Number.isFinite(value)) return "R—";
  const cents = toCents(value);
  const abs = Math.abs(cents);
  // Whole rand amounts show no decimals; anything else shows exactly two.
  const rand = groupThousands(String(Math.trunc(abs / 100)));
  const text = abs % 100 === 0 ? rand : `${rand}.${String(abs % 100).padStart(2, "0")}`;
  return `${cents < 0 ? "-" : ""}R${text}`;
}

/**
 * Rand to integer cents, rounding half away from zero (1.005 → 101, -1.005 → -101).
 * Binary floats store 1.005 as 1.00499…; rounding the product to 15 significant digits first
 * recovers the decimal the person typed. Non-finite input throws: money math must not guess.
 */
export function toCents(rand: number): number {
  if (!Number.isFinite(rand)) throw new RangeError(`Not an amount of money: ${rand}`);
  const scaled = Number((Math.abs(rand) * 100).toPrecision(15));
  // `+ 0` turns -0 into 0.
  return Math.sign(rand) * Math.round(scaled) + 0;
}

/** Integer cents to rand (10000 → 100). */
export function fromCents(cents: number): number {
  if (!Number.isInteger(cents)) throw new RangeError(`Cents must be a whole number: ${cents}`);
  return cents / 100;
}
