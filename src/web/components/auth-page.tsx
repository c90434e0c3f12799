// The pages around signing in (the sign-in pages, the client's password reset, a partner's first
// password): centred, under an icon, a title and a line saying what to do.
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/web/lib/cn";

export interface AuthPageProps {
  icon: LucideIcon;
  title: string;
  intro: ReactNode;
  /** the page's own spacing (the dashboard's login fills the screen; the public pages sit in their layout) */
  className?: string;
  /** the card (a form, or what became of it) and anything under it */
  children: ReactNode;
}

export function AuthPage({ icon: Icon, title, intro, className, children }: AuthPageProps) {
  return (
    <div className={cn("flex items-center justify-center px-4 py-10", className)}>
      <div className="w-full max-w-md">
        <div className="mb-8 flex flex-col items-center gap-3 text-center">
          <span className="flex size-14 items-center justify-center rounded-2xl bg-accent/15 text-accent-ink">
            <Icon aria-hidden="true" className="size-7" />
          </span>
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">{title}</h1>
          <p className="text-ink-muted">{intro}</p>
        </div>
        {children}
      </div>
    </div>
  );
}
