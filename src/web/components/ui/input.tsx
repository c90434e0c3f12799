import type { InputHTMLAttributes, Ref } from "react";
import { cn } from "@/web/lib/cn";

export const fieldClasses =
  "w-full min-h-12 rounded-xl border border-line bg-surface-raised px-4 text-base text-ink placeholder:text-ink-subtle " +
  "transition-colors hover:border-line-strong focus-visible:border-accent-ink focus-visible:outline-none " +
  "focus-visible:ring-2 focus-visible:ring-accent-ink/40 aria-[invalid=true]:border-bad disabled:opacity-60";

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
}

export function Input({ className, ...props }: InputProps) {
  return <input className={cn(fieldClasses, className)} {...props} />;
}
