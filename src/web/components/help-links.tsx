// Links to help pages, each an icon, a title and a line about it (the support page's self-help,
// the portal's Help card).
import type { LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { cn } from "@/web/lib/cn";

export interface HelpLink {
  to: string;
  icon: LucideIcon;
  title: string;
  text: string;
}

const LOOKS = {
  /** inside a card */
  inset: {
    list: "flex flex-col gap-3",
    link: "flex min-h-14 items-start gap-3 rounded-xl border border-line bg-surface-raised p-4 transition-colors hover:border-line-strong",
    text: "flex flex-col",
  },
  /** cards of their own on a page */
  cards: {
    list: "grid gap-3",
    link: "flex min-h-11 items-start gap-4 rounded-card border border-line bg-surface p-4 transition-colors hover:border-accent/60 hover:bg-surface-raised sm:p-5",
    text: "flex flex-col gap-0.5",
  },
} as const;

export function HelpLinks({ links, look, className }: { links: readonly HelpLink[]; look: keyof typeof LOOKS; className?: string }) {
  const classes = LOOKS[look];
  return (
    <ul className={cn(classes.list, className)}>
      {links.map(({ to, icon: Icon, title, text }) => (
        <li key={to}>
          <Link to={to} className={classes.link}>
            <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent-ink" />
            <span className={classes.text}>
              <span className="font-semibold text-ink">{title}</span>
              <span className="text-sm text-ink-muted">{text}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
