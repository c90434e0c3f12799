import type { ReactNode } from "react";
import { cn } from "@/web/lib/cn";

export interface SectionHeadingProps {
  /** id of the heading, for the section's aria-labelledby */
  id: string;
  title: ReactNode;
  eyebrow?: ReactNode;
  description?: ReactNode;
  align?: "left" | "center";
  /** h1 on full pages, h2 for sections of the landing */
  level?: 1 | 2;
  className?: string;
}

export function SectionHeading({ id, title, eyebrow, description, align = "center", level = 2, className }: SectionHeadingProps) {
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <div className={cn("flex flex-col gap-3", align === "center" ? "mx-auto max-w-3xl items-center text-center" : "max-w-3xl", className)}>
      {eyebrow ? <p className="text-sm font-semibold tracking-widest text-accent-ink uppercase">{eyebrow}</p> : null}
      <Heading id={id} className="text-3xl font-bold tracking-tight text-balance text-ink sm:text-4xl">
        {title}
      </Heading>
      {description ? <p className="text-base text-pretty text-ink-muted sm:text-lg">{description}</p> : null}
    </div>
  );
}
