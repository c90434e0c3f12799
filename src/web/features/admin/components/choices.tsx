// Choices the dashboard's forms share: the packages as a select's options, and a radio drawn as a
// card with a line about what choosing it means.
import type { UseFormRegisterReturn } from "react-hook-form";
import { type PricedPackage, packageChoice } from "./format";

/** One option per package, priced as a client would pay today (after the caller's own empty choice). */
export function PackageOptions({ packages }: { packages: readonly (PricedPackage & { id: string })[] | undefined }) {
  return packages?.map((p) => (
    <option key={p.id} value={p.id}>
      {packageChoice(p)}
    </option>
  ));
}

/** A radio as a card: its label, and under it what choosing it means. */
export function ChoiceCard({
  value,
  label,
  detail,
  registration,
}: {
  value: string;
  label: string;
  detail: string;
  registration: UseFormRegisterReturn;
}) {
  return (
    <label className="flex min-h-12 cursor-pointer items-start gap-3 rounded-xl border border-line bg-surface-raised px-4 py-3 has-[:checked]:border-accent has-[:checked]:bg-accent/10 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent-ink/40">
      <input type="radio" value={value} {...registration} className="mt-0.5 size-4 shrink-0 accent-[var(--color-accent)]" />
      <span className="flex flex-col gap-0.5">
        <span className="text-sm font-medium text-ink">{label}</span>
        <span className="text-xs text-ink-subtle">{detail}</span>
      </span>
    </label>
  );
}
