import type { HTMLAttributes } from "react";
import { cn } from "@/web/lib/cn";

/** The page's content column: centred, padded so nothing touches the edge at 360 px. */
export function Container({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8", className)} {...props} />;
}
