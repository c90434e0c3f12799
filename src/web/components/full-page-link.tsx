// "View Full Page" under a landing section (spec §2): the link to the section's own page.
import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { buttonClasses } from "@/web/components/ui/button";
import { cn } from "@/web/lib/cn";

/** Centred by default; `className` places it (a margin, or a grid cell on wide screens). */
export function FullPageLink({ to, className }: { to: string; className?: string }) {
  return (
    <div className={cn("flex justify-center", className)}>
      <Link to={to} className={buttonClasses({ variant: "outline" })}>
        View Full Page
        <ArrowRight aria-hidden="true" />
      </Link>
    </div>
  );
}
