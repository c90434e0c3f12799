import type { ButtonHTMLAttributes } from "react";
import { cn } from "@/web/lib/cn";

export type ButtonVariant = "primary" | "secondary" | "outline" | "ghost" | "special";
export type ButtonSize = "sm" | "md" | "lg";

// A label stays on one line from the sm breakpoint up; narrower (a phone, or any screen zoomed to
// 200%) it wraps inside the button rather than pushing the page wider than the screen.
const base =
  "inline-flex max-w-full items-center justify-center gap-2 rounded-xl text-center font-semibold sm:whitespace-nowrap select-none " +
  "transition-[background-color,border-color,color,transform] duration-150 active:scale-[0.98] " +
  "disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-[1.1em] [&_svg]:shrink-0";

const variants: Record<ButtonVariant, string> = {
  primary: "bg-accent text-white shadow-lg shadow-accent/25 hover:bg-accent-hover",
  secondary: "bg-surface-overlay text-ink hover:bg-line",
  outline: "border border-line-strong text-ink hover:border-ink-subtle hover:bg-surface-raised",
  ghost: "text-ink-muted hover:bg-surface-raised hover:text-ink",
  special: "bg-special text-canvas shadow-lg shadow-special/20 hover:bg-special-ink",
};

// Every size keeps a tap target of at least 44 px (docs/architecture.md, "House style").
const sizes: Record<ButtonSize, string> = {
  sm: "min-h-11 px-4 text-sm",
  md: "min-h-12 px-5 text-[0.95rem]",
  lg: "min-h-14 px-7 text-base",
};

/** The classes of a button, for links that should look like one. */
export function buttonClasses({
  variant = "primary",
  size = "md",
  className,
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
} = {}): string {
  return cn(base, variants[variant], sizes[size], className);
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

export function Button({ variant, size, className, type = "button", ...props }: ButtonProps) {
  return <button type={type} className={buttonClasses({ variant, size, className })} {...props} />;
}
