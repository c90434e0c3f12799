import type { HTMLAttributes } from "react";
import { cn } from "@/web/lib/cn";

export type BadgeVariant = "accent" | "special" | "neutral" | "ok" | "warn" | "bad";

const variants: Record<BadgeVariant, string> = {
  accent: "bg-accent text-white",
  special: "bg-special text-canvas",
  neutral: "bg-surface-overlay text-ink-muted ring-1 ring-line",
  ok: "bg-ok/15 text-ok ring-1 ring-ok/30",
  warn: "bg-warn/15 text-warn ring-1 ring-warn/30",
  bad: "bg-bad/15 text-bad-ink ring-1 ring-bad/30",
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: BadgeVariant;
}

export function Badge({ variant = "neutral", className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        "inline-flex max-w-full items-center gap-1 rounded-full px-3 py-1 text-xs font-bold tracking-wide uppercase [&_svg]:size-3.5",
        variants[variant],
        className,
      )}
      {...props}
    />
  );
}
