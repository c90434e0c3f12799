import type { LabelHTMLAttributes } from "react";
import { cn } from "@/web/lib/cn";

export interface LabelProps extends LabelHTMLAttributes<HTMLLabelElement> {
  /** shows an asterisk; the input itself carries `required` when the rule is enforced */
  required?: boolean;
}

export function Label({ className, required, children, ...props }: LabelProps) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor
    <label className={cn("text-sm font-medium text-ink", className)} {...props}>
      {children}
      {required ? <RequiredMark /> : null}
    </label>
  );
}

/** The asterisk of a required field (hidden from screen readers: the control says it is required). */
export function RequiredMark() {
  return (
    <span className="ml-0.5 text-accent-ink" aria-hidden="true">
      *
    </span>
  );
}
