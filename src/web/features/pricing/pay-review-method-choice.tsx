import { PaymentMark, type PaymentMarkId } from "@/web/components/payment-marks";
import { cn } from "@/web/lib/cn";
import type { Method } from "./pay-review-model";

/** The ways to pay, one to pick (a radio group): card, each provider the owner turned on, EFT. */
export function MethodChoice({
  choices,
  chosen,
  onChoose,
}: {
  choices: { id: Method; name: string; text: string; mark?: string }[];
  chosen: Method | undefined;
  onChoose: (method: Method) => void;
}) {
  return (
    <fieldset className="mt-5" data-testid="pay-methods">
      <legend className="text-sm font-semibold text-ink">How would you like to pay?</legend>
      <div className="mt-3 grid gap-2 sm:grid-cols-2">
        {choices.map((choice) => (
          <label
            key={choice.id}
            className={cn(
              "flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border p-3 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent-ink/40",
              chosen === choice.id ? "border-accent bg-accent/10" : "border-line bg-surface-raised hover:border-line-strong",
            )}
          >
            <input
              type="radio"
              name="pay-method"
              value={choice.id}
              checked={chosen === choice.id}
              onChange={() => onChoose(choice.id)}
              className="mt-1 size-4 accent-[var(--color-accent)]"
            />
            <PaymentMark id={choice.id as PaymentMarkId} text={choice.mark} className="mt-0.5" />
            <span className="flex flex-col gap-0.5">
              <span className="font-semibold text-ink">{choice.name}</span>
              <span className="text-sm text-ink-muted">{choice.text}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
