// Small form pieces the operations editors share: a checkbox row, the sort order, and South African
// date-time inputs (datetime-local holds SAST wall time; the API wants an ISO time with its zone).
import type { ReactNode } from "react";
import { Input } from "@/web/components/ui/input";
import { Field } from "../../components/form-field";

/** An ISO time as the value of a datetime-local input, in SAST (UTC+2). */
export function toSastInput(iso: string | null | undefined): string {
  if (!iso) return "";
  const t = Date.parse(iso);
  return Number.isNaN(t) ? "" : new Date(t + 2 * 3600_000).toISOString().slice(0, 16);
}

/** A datetime-local value (SAST) as an ISO time with its offset; blank → null (clears the field). */
export function fromSastInput(value: string): string | null {
  return value ? `${value.length === 16 ? `${value}:00` : value}+02:00` : null;
}

export function CheckField({
  label,
  checked,
  onChange,
  hint,
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: ReactNode;
}) {
  return (
    <label className="flex min-h-11 items-start gap-3 text-sm text-ink">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="mt-0.5 size-5 shrink-0 accent-[var(--color-accent)]"
      />
      <span className="flex flex-col gap-0.5">
        <span>{label}</span>
        {hint ? <span className="text-xs text-ink-subtle">{hint}</span> : null}
      </span>
    </label>
  );
}

/** A row's small action buttons (edit, delete) under the table's actions column or a card's foot. */
export function RowActions({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-wrap gap-2" data-row-ignore>
      {children}
    </div>
  );
}

/** A sort order as typed (text, so it can be left blank) → the number sent: blank is 0. */
export function sortOrderOf(typed: string): number {
  return typed.trim() === "" ? 0 : Number(typed);
}

/** 'Sort order': a number typed as text (see sortOrderOf). */
export function SortOrderField({
  value,
  onChange,
  error,
  hint,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
}) {
  return (
    <Field label="Sort order" error={error} hint={hint}>
      {(control) => <Input {...control} type="number" inputMode="numeric" value={value} onChange={(e) => onChange(e.target.value)} />}
    </Field>
  );
}
