import type { ReactNode } from "react";
import { Link } from "react-router";
import { buttonClasses } from "./button";
import { Container } from "./container";

export interface PageLink {
  to: string;
  label: string;
}

export interface PageIntroProps {
  title: string;
  description: ReactNode;
  eyebrow?: string;
  /** follow-on pages, the first drawn as the main action */
  links?: PageLink[];
  children?: ReactNode;
}

/** A page's title block: h1, what the page is for, and where to go next. */
export function PageIntro({ title, description, eyebrow, links = [], children }: PageIntroProps) {
  return (
    <Container className="py-14 sm:py-20">
      <div className="flex max-w-3xl flex-col gap-4">
        {eyebrow ? <p className="text-sm font-semibold tracking-widest text-accent-ink uppercase">{eyebrow}</p> : null}
        <h1 className="text-3xl font-bold tracking-tight text-balance text-ink sm:text-4xl">{title}</h1>
        <div className="text-lg text-pretty text-ink-muted">{description}</div>
        {links.length ? (
          <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
            {links.map((link, index) => (
              <Link key={link.to} to={link.to} className={buttonClasses({ variant: index === 0 ? "primary" : "outline" })}>
                {link.label}
              </Link>
            ))}
          </div>
        ) : null}
      </div>
      {children ? <div className="mt-12">{children}</div> : null}
    </Container>
  );
}
