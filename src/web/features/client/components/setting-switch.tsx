// A setting on the account page that saves as it is switched (status updates, automatic renewal):
// the switch beside its label, and under it a line saying where the setting stands.
import type { ReactNode } from "react";

export function SettingSwitch({
  label,
  on,
  disabled,
  onSwitch,
  status,
}: {
  label: string;
  on: boolean;
  disabled: boolean;
  /** the switch's new position */
  onSwitch: (on: boolean) => void;
  status: ReactNode;
}) {
  return (
    <>
      <label className="mt-4 flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-line bg-surface-raised p-4">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          aria-checked={on}
          disabled={disabled}
          onChange={(event) => onSwitch(event.target.checked)}
          className="size-5 shrink-0 accent-[var(--color-accent)]"
        />
        <span className="text-sm text-ink">{label}</span>
      </label>
      <p className="mt-2 text-sm text-ink-subtle" role="status">
        {status}
      </p>
    </>
  );
}
