// A yes/no field with a 44 px tap target, and its server message if any.
import type { ReactNode } from "react";

export function CheckboxField({
  label,
  checked,
  onChange,
  hint,
  error,
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: ReactNode;
  error?: string;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm text-ink">
        <input
          type="checkbox"
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          aria-invalid={error ? true : undefined}
          className="size-5 shrink-0 accent-[var(--color-accent)]"
        />
        <span>{label}</span>
      </label>
      {hint ? <p className="pl-8 text-xs text-ink-subtle">{hint}</p> : null}
      {error ? <p className="pl-8 text-sm text-bad">{error}</p> : null}
    </div>
  );
}
