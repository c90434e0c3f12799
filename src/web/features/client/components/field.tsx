// A labelled form field with its error line, wired for screen readers (aria-invalid, describedby).
import { cloneElement, type ReactElement } from "react";
import { FieldError, fieldAria } from "@/web/components/form-field";
import { Label } from "@/web/components/ui/label";

export function Field({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  children: ReactElement<Record<string, unknown>>;
}) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {cloneElement(children, { id, ...fieldAria(id, { error, hint: Boolean(hint) }) })}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-ink-subtle">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}
