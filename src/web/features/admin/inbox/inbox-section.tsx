// /admin/inbox and /admin/inbox/:number — the WhatsApp inbox (issue 26): the conversations
// (newest first, unread counted), a number's thread (what they wrote, and what we sent them from
// the inbox or the outbox, with its delivery state), the reply box and the customer's facts
// beside it. On a phone the list and the thread are two screens; from lg up, side by side.
import { ArrowLeft, MessageCircle } from "lucide-react";
import { useState } from "react";
import { Link, useParams } from "react-router";
import type { InboxConversation } from "@/shared/api";
import { INBOX_NUMBER } from "@/shared/inbox-schemas";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { AdminPageHeader } from "../components/admin-page-header";
import { formatDateTime, phone } from "../components/format";
import { useInboxList, useInboxThread } from "./api/inbox-api";
import { CustomerFacts } from "./customer-facts";
import { type Draft, ReplyForm } from "./reply-form";
import { ThreadMessages } from "./thread-messages";

export function InboxSection() {
  const { subsection = "" } = useParams();
  const number = INBOX_NUMBER.test(subsection) ? subsection : "";
  return (
    <>
      <AdminPageHeader
        title="Inbox"
        description="WhatsApp messages from your clients and leads. Reply within 24 hours of their last message; after that WhatsApp only lets a template through."
      />
      <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(16rem,20rem)_minmax(0,1fr)]">
        <div className={cn("min-w-0", number ? "hidden lg:block" : "block")}>
          <ConversationList selected={number} />
        </div>
        <div className={cn("min-w-0", number ? "block" : "hidden lg:block")}>
          {number ? (
            <Thread key={number} number={number} />
          ) : subsection ? (
            <Empty text="That is not a WhatsApp number. Pick a conversation from the list." />
          ) : (
            <Empty text="Pick a conversation to read it and reply." />
          )}
        </div>
      </div>
    </>
  );
}

function Empty({ text }: { text: string }) {
  return (
    <div className="flex min-h-40 flex-col items-center justify-center gap-3 rounded-2xl border border-line bg-surface p-6 text-center text-sm text-ink-muted">
      <MessageCircle aria-hidden="true" className="size-8 text-ink-subtle" />
      <p>{text}</p>
    </div>
  );
}

function ConversationList({ selected }: { selected: string }) {
  const list = useInboxList();
  if (list.isPending) {
    return (
      <div className="flex flex-col gap-2" aria-busy="true">
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-16 w-full" />
      </div>
    );
  }
  if (list.error) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3 rounded-2xl border border-bad/40 bg-bad/10 p-4 text-sm text-bad">
        <p>The conversations could not be loaded: {list.error.message}</p>
        <Button variant="outline" size="sm" onClick={() => list.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (!list.data.length) return <Empty text="No WhatsApp messages yet. When someone writes to your number, it shows here." />;
  return (
    <nav aria-label="Conversations">
      <ul className="flex flex-col gap-2">
        {list.data.map((c) => (
          <li key={c.number}>
            <ConversationLink conversation={c} current={c.number === selected} />
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ConversationLink({ conversation: c, current }: { conversation: InboxConversation; current: boolean }) {
  return (
    <Link
      to={`/admin/inbox/${c.number}`}
      aria-current={current ? "page" : undefined}
      className={cn(
        "flex min-h-11 min-w-0 flex-col gap-1 rounded-2xl border px-4 py-3 text-sm transition-colors",
        current ? "border-accent/50 bg-accent/10" : "border-line bg-surface hover:bg-surface-raised",
      )}
    >
      <span className="flex min-w-0 items-baseline justify-between gap-2">
        <span className={cn("min-w-0 truncate text-ink", c.unread ? "font-bold" : "font-medium")}>{c.name || phone(c.number)}</span>
        <span className="shrink-0 text-xs text-ink-subtle">{formatDateTime(c.last_message_at)}</span>
      </span>
      <span className="flex min-w-0 items-center justify-between gap-2">
        <span className="min-w-0 truncate text-ink-muted">{c.last_text}</span>
        {c.unread ? (
          <Badge variant="accent" className="shrink-0 px-2 py-0 text-xs">
            {c.unread}
            <span className="sr-only"> unread</span>
          </Badge>
        ) : null}
      </span>
      {c.name ? <span className="text-xs text-ink-subtle">{phone(c.number)}</span> : null}
    </Link>
  );
}

function Thread({ number }: { number: string }) {
  const thread = useInboxThread(number);
  const data = thread.data;
  // what a quick action wrote into the reply box (a new object each time, so the same text again lands again)
  const [draft, setDraft] = useState<Draft | null>(null);
  return (
    <section aria-labelledby="inbox-thread-title" className="flex min-w-0 flex-col gap-4">
      <Link
        to="/admin/inbox"
        className="inline-flex min-h-11 items-center gap-2 self-start text-sm text-ink-muted hover:text-ink lg:hidden"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All conversations
      </Link>
      <div className="flex min-w-0 flex-col gap-1">
        <h2 id="inbox-thread-title" className="text-xl font-semibold break-words text-ink">
          {data?.name || phone(number)}
        </h2>
        {data?.name ? <p className="text-sm text-ink-muted">{phone(number)}</p> : null}
      </div>
      {thread.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : thread.error || !data ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-2xl border border-bad/40 bg-bad/10 p-4 text-sm text-bad">
          <p>This conversation could not be loaded: {thread.error?.message ?? "please try again"}</p>
          <Button variant="outline" size="sm" onClick={() => thread.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <div className="grid min-w-0 gap-4 xl:grid-cols-[minmax(0,1fr)_16rem]">
          <div className="flex min-w-0 flex-col gap-4">
            <ThreadMessages messages={data.messages} />
            <ReplyForm number={number} windowOpenUntil={data.window_open_until} cloudApi={data.cloud_api} draft={draft} />
          </div>
          <CustomerFacts thread={data} onDraft={(text) => setDraft({ text })} />
        </div>
      )}
    </section>
  );
}
