import type { HTMLAttributes } from "react";
import { cn } from "@/web/lib/cn";

export function Card({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("rounded-card border border-line bg-surface shadow-xl shadow-black/20", className)} {...props} />;
}
