import type { HTMLAttributes } from "react";
import { cn } from "@/web/lib/cn";

/** A grey placeholder block; decorative, so hidden from assistive technology. */
export function Skeleton({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div aria-hidden="true" className={cn("animate-shimmer rounded-lg bg-surface-overlay", className)} {...props} />;
}
