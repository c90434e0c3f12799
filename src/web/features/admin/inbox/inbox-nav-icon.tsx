// The inbox's navigation icon, carrying the unread count: the sidebar draws each section's icon
// before its label, so the badge rides on the icon (visible count, and "N unread" for screen
// readers, part of the link's name). Refreshed by the change feed (["admin", "whatsapp_messages"]).
import type { LucideIcon, LucideProps } from "lucide-react";
import { MessageCircle } from "lucide-react";
import { cn } from "@/web/lib/cn";
import { useInboxUnread } from "./api/inbox-api";

function InboxNavIconComponent({ className, "aria-hidden": _hidden, ...props }: LucideProps) {
  const unread = useInboxUnread().data ?? 0;
  const shown = unread > 99 ? "99+" : String(unread);
  return (
    <span className={cn("relative inline-flex", className)}>
      <MessageCircle aria-hidden="true" className="size-full" {...props} />
      {unread > 0 ? (
        <>
          <span
            aria-hidden="true"
            className="absolute -top-1.5 -right-2 min-w-4 rounded-full bg-accent px-1 text-center text-[0.65rem] leading-4 font-bold text-white"
          >
            {shown}
          </span>
          <span className="sr-only">{`${shown} unread, `}</span>
        </>
      ) : null}
    </span>
  );
}

/** Typed as the sections' icon (sections.ts); renders a span around the icon. */
export const InboxNavIcon = InboxNavIconComponent as unknown as LucideIcon;
