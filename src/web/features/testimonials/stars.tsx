import { Star } from "lucide-react";
import { cn } from "@/web/lib/cn";

/** A 1-5 rating as stars, read out as "4 out of 5 stars". */
export function Stars({ rating, className }: { rating: number; className?: string }) {
  const value = Math.max(0, Math.min(5, Math.round(rating)));
  return (
    <span role="img" aria-label={`${value} out of 5 stars`} className={cn("flex gap-0.5", className)}>
      {[1, 2, 3, 4, 5].map((n) => (
        <Star key={n} aria-hidden="true" className={cn("size-5", n <= value ? "fill-special text-special" : "text-line-strong")} />
      ))}
    </span>
  );
}
