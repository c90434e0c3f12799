// The overview's first tile: the WhatsApp messages nobody has read yet, opening the inbox — on a
// phone the owner taps it, then the conversation, and answers (issue 26 item 6). Its own query
// (the navigation badge's), so it shows even while the day's numbers load; the change feed
// refreshes it when a message arrives.
import { MessageCircle } from "lucide-react";
import { Link } from "react-router";
import { cn } from "@/web/lib/cn";
import { useInboxUnread } from "../inbox/api/inbox-api";

export function InboxTile() {
  const unread = useInboxUnread();
  const count = unread.data ?? 0;
  const attention = count > 0;
  return (
    <Link
      to="/admin/inbox"
      data-testid="overview-inbox"
      className={cn(
        "flex h-full flex-col gap-3 rounded-card border bg-surface p-4 transition-colors hover:border-line-strong hover:bg-surface-raised sm:p-5",
        attention ? "border-special/50" : "border-line",
      )}
    >
      <span className="flex items-start justify-between gap-2 text-sm text-ink-muted">
        WhatsApp messages to answer
        <MessageCircle aria-hidden={true} className={cn("size-5 shrink-0", attention ? "text-special" : "text-ink-subtle")} />
      </span>
      <span className="mt-auto text-2xl font-bold text-ink tabular sm:text-3xl">
        {unread.data === undefined ? "—" : count.toLocaleString("en-US")}
      </span>
    </Link>
  );
}
