// The frame of the storefront's one-message pages (a payment's result, a pay link that cannot be
// used): a narrow centred column, and a notice with its icon, heading and what to do next.
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Container } from "@/web/components/ui/container";

export function NoticeFrame({ children }: { children: ReactNode }) {
  return <Container className="max-w-xl py-14 sm:py-20">{children}</Container>;
}

export function NoticePage({ Icon, title, children }: { Icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <NoticeFrame>
      <div className="flex flex-col items-center gap-4 text-center">
        <span className="flex size-16 items-center justify-center rounded-full bg-surface-overlay text-ink-muted">
          <Icon aria-hidden="true" className="size-8" />
        </span>
        <h1 className="text-3xl font-bold tracking-tight text-balance text-ink">{title}</h1>
      </div>
      <div className="mt-6 flex flex-col gap-6 text-center text-ink-muted [&_p]:text-pretty">{children}</div>
    </NoticeFrame>
  );
}
