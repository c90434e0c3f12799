// A thread's messages, oldest first (the newest beside the reply box, so the page itself scrolls): theirs on the left, ours on the right, each with its time
// and, for ours, how it went (sent, delivered, read, failed with the reason, waiting for the owner).
import { Paperclip } from "lucide-react";
import type { InboxMessage } from "@/shared/api";
import { messageKindLabel } from "@/shared/messaging";
import { cn } from "@/web/lib/cn";
import { formatDateTime, humanise } from "../components/format";
import { StatusBadge } from "../components/status-badge";

/** What our message's state reads as: the Cloud API's delivery word when there is one, else the outbox's state. */
export function deliveryWord(m: InboxMessage): string | null {
  if (m.direction !== "out") return null;
  if (m.delivery_status === "failed" || m.status === "failed") return "failed";
  if (m.delivery_status) return m.delivery_status;
  if (m.status === "owner") return m.source === "inbox" ? "sent by hand" : "owner";
  return m.status;
}

const MEDIA_LABELS: Record<string, string> = {
  image: "Photo",
  video: "Video",
  audio: "Voice note or audio",
  document: "Document",
  sticker: "Sticker",
};

export function ThreadMessages({ messages }: { messages: InboxMessage[] }) {
  if (!messages.length) {
    return <p className="rounded-2xl border border-line bg-surface p-4 text-sm text-ink-muted">No messages with this number yet.</p>;
  }
  return (
    <ol aria-label="Messages" className="flex min-w-0 flex-col gap-3 overflow-y-auto rounded-2xl border border-line bg-surface p-3 sm:p-4">
      {messages.map((m) => {
        const ours = m.direction === "out";
        const word = deliveryWord(m);
        return (
          <li key={`${m.source}:${m.id}`} className={cn("flex min-w-0", ours ? "justify-end" : "justify-start")}>
            <div
              className={cn(
                "flex max-w-[85%] min-w-0 flex-col gap-1 rounded-2xl px-3 py-2 text-sm",
                ours ? "bg-accent/15 text-ink" : "bg-surface-raised text-ink",
              )}
            >
              <span className="sr-only">{ours ? "We wrote:" : "They wrote:"}</span>
              {ours && m.source === "outbox" ? (
                <span className="text-xs text-ink-subtle">{messageKindLabel(m.type || "message")}</span>
              ) : null}
              {m.media_id || MEDIA_LABELS[m.type] ? (
                <span className="inline-flex items-center gap-1 text-xs text-ink-muted">
                  <Paperclip aria-hidden="true" className="size-3.5" />
                  {MEDIA_LABELS[m.type] ?? humanise(m.type)}
                  {m.media_mime ? ` (${m.media_mime})` : ""}
                </span>
              ) : null}
              {m.text ? <p className="break-words whitespace-pre-wrap">{m.text}</p> : null}
              {!m.text && !m.media_id && !ours ? <p className="text-ink-muted italic">({humanise(m.type)})</p> : null}
              <span className="flex flex-wrap items-center gap-2 text-xs text-ink-subtle">
                <time dateTime={m.at}>{formatDateTime(m.at)}</time>
                {word ? <StatusBadge status={word} /> : null}
              </span>
              {word === "failed" && m.error ? <span className="text-xs break-words text-bad">{m.error}</span> : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
