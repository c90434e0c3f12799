// The public forms' fields (order form, payment review step): a label, the control, a hint and
// the error under it. The caller gives the control's id and ties it up with `fieldAria`, so the
// error (`{id}-error`) and hint (`{id}-hint`) are announced with the control.
import type { ReactNode } from "react";
import { Label, RequiredMark } from "@/web/components/ui/label";
import { cn } from "@/web/lib/cn";

/** aria-invalid and aria-describedby for the control `id` (its error first, then its hint). */
export function fieldAria(id: string, { error, hint = false }: { error?: string; hint?: boolean }) {
  return {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined,
  } as const;
}

/** The error line under the control `id` (the `{id}-error` its aria-describedby names); nothing without an error. */
export function FieldError({ id, error, className }: { id: string; error?: string; className?: string }) {
  if (!error) return null;
  return (
    <p id={`${id}-error`} className={cn("text-sm text-bad", className)}>
      {error}
    </p>
  );
}

export interface FormFieldProps {
  /** the control's id */
  id: string;
  label: string;
  /** enforced: an asterisk (the control carries aria-required) */
  required?: boolean;
  /** an asterisk only (spec §5: Select Package and Internet Platform) */
  asterisk?: boolean;
  error?: string;
  hint?: ReactNode;
  className?: string;
  children: ReactNode;
}

export function FormField({ id, label, required, asterisk, error, hint, className, children }: FormFieldProps) {
  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <Label htmlFor={id} required={required || asterisk}>
        {label}
      </Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-ink-subtle">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} className="font-medium" />
    </div>
  );
}

export interface CheckboxFieldProps {
  /** the checkbox's id */
  id: string;
  /** the checkbox itself (registered by the form) */
  input: ReactNode;
  error?: string;
  required?: boolean;
  children: ReactNode;
}

/** A checkbox with its label beside it; the row is outlined while its error shows. */
export function CheckboxField({ id, input, error, required, children }: CheckboxFieldProps) {
  return (
    <div className="flex flex-col gap-1">
      <div className={cn("flex gap-3 rounded-xl p-3 ring-1", error ? "bg-bad/5 ring-bad/50" : "ring-transparent")}>
        {input}
        <label htmlFor={id} className="text-sm text-ink-muted">
          {children}
          {required ? <RequiredMark /> : null}
        </label>
      </div>
      <FieldError id={id} error={error} className="px-3 font-medium" />
    </div>
  );
}
