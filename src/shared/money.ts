// Money as the storefront shows it (spec §1: "R{price}") and as providers want it (integer
// cents). One format everywhere (BRAND.md): comma thousands separator, no space after R.

/** Whole rand amounts show no decimals; anything else shows exactly two. */
const wholeFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const centsFormat = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * R650, R1,650, R10,999, R199.50; negative amounts as -R150.
 * A value that is not a finite number shows as "R—" so a bad value is visible without
 * taking the page down.
 */
export function formatRand(value: number): string {
  if (!Number.isFinite(value)) return "R—";
  const cents = toCents(value);
  const abs = Math.abs(cents);
  const text = abs % 100 === 0 ? wholeFormat.format(abs / 100) : centsFormat.format(abs / 100);
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
