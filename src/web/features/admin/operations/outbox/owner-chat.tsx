// One chat per person in the owner's "To send on WhatsApp" queue: a person's waiting messages
// (same number), oldest first, are one row with one "Open chat" (WhatsApp opens with the texts
// one after another, ready to send as one message) and one "Mark all sent". A message holding a
// secret (a set-password or reset link) keeps no link: "Prepare chat" asks the server for each
// one's chat link (each ask is audited) before the chat can open.
import { Check, KeyRound } from "lucide-react";
import { useState } from "react";
import { buildWhatsAppLink, isValidWhatsAppLink } from "@/shared/whatsapp";
import { Button } from "@/web/components/ui/button";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";
import { phone } from "../../components/format";
import { getChatLink } from "./api/get-chat-link";
import type { OutboxMessage } from "./api/get-outbox";
import { useMarkChatSent } from "./api/mark-chat-sent";
import { awaitsOwner, OpenChatLink, SendOnWhatsApp } from "./send-on-whatsapp";

/** A person's waiting WhatsApp messages, oldest first; `id` is the oldest message's. */
export interface OwnerChat {
  id: string;
  recipient: string;
  messages: OutboxMessage[];
}

/**
 * The queue's messages as one chat per person: grouped by number in the order the server lists
 * them (the person waiting longest first), each group oldest first. Anything not waiting for
 * the owner stays a row of its own.
 */
export function ownerChats(messages: readonly OutboxMessage[]): OwnerChat[] {
  const chats: OwnerChat[] = [];
  const byNumber = new Map<string, OwnerChat>();
  for (const m of messages) {
    const existing = awaitsOwner(m) ? byNumber.get(m.recipient) : undefined;
    if (existing) {
      existing.messages.push(m);
      continue;
    }
    const chat = { id: m.id, recipient: m.recipient, messages: [m] };
    chats.push(chat);
    if (awaitsOwner(m)) byNumber.set(m.recipient, chat);
  }
  for (const chat of chats) {
    chat.messages.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
    chat.id = chat.messages[0].id;
  }
  return chats;
}

/** The text a message's wa.me link carries (a secret's filled in, as the server answered). */
const textOf = (url: string) => new URL(url).searchParams.get("text") ?? "";

/** The chat's wa.me link with every message's text, oldest first; null while a secret is not asked for yet. */
function chatLink(chat: OwnerChat, revealed: Record<string, string>): string | null {
  const texts: string[] = [];
  for (const m of chat.messages) {
    if (!m.has_secret) texts.push(m.wa_link ? textOf(m.wa_link) : m.body);
    else if (revealed[m.id]) texts.push(textOf(revealed[m.id]));
    else return null;
  }
  return buildWhatsAppLink(chat.recipient, texts.join("\n\n"));
}

export function SendChatOnWhatsApp({ chat, className }: { chat: OwnerChat; className?: string }) {
  if (chat.messages.length === 1) return <SendOnWhatsApp message={chat.messages[0]} className={className} />;
  return <SendGroupOnWhatsApp chat={chat} className={className} />;
}

function SendGroupOnWhatsApp({ chat, className }: { chat: OwnerChat; className?: string }) {
  const [revealed, setRevealed] = useState<Record<string, string>>({});
  const [preparing, setPreparing] = useState(false);
  const [opened, setOpened] = useState(false);
  const markSent = useMarkChatSent();
  const who = phone(chat.recipient);
  const count = chat.messages.length;
  const link = chatLink(chat, revealed);

  // One ask per message holding a secret: the server records each.
  const prepare = async () => {
    setPreparing(true);
    try {
      const asked: Record<string, string> = {};
      for (const m of chat.messages.filter((m) => m.has_secret && !revealed[m.id])) asked[m.id] = await getChatLink(m.id);
      setRevealed((before) => ({ ...before, ...asked }));
    } catch (error) {
      toast.error("No chat link", { description: error instanceof Error ? error.message : "Please try again." });
    } finally {
      setPreparing(false);
    }
  };
  const markAll = () =>
    markSent.mutate(
      chat.messages.map((m) => m.id),
      {
        onSuccess: () => toast.success("Marked as sent", { description: `The ${count} messages to ${who} are done.` }),
        onError: (error) => toast.error("Not marked", { description: error.message }),
      },
    );

  return (
    <div className={cn("flex flex-wrap items-center gap-2 lg:flex-nowrap", className)}>
      {link && isValidWhatsAppLink(link) ? (
        <OpenChatLink
          href={link}
          opened={opened}
          onOpen={() => setOpened(true)}
          context={` with ${who} on WhatsApp (new tab), ${count} messages in one`}
        />
      ) : (
        <Button variant="primary" size="sm" disabled={preparing} onClick={prepare}>
          <KeyRound aria-hidden="true" />
          {preparing ? "Preparing..." : "Prepare chat"}
          <span className="sr-only">
            {" "}
            with {who} on WhatsApp ({count} messages, one holds a private link)
          </span>
        </Button>
      )}
      <Button variant={opened ? "primary" : "outline"} size="sm" disabled={markSent.isPending} onClick={markAll}>
        <Check aria-hidden="true" />
        {markSent.isPending ? "Saving..." : "Mark all sent"}
        <span className="sr-only">
          {" "}
          for the {count} messages to {who}
        </span>
      </Button>
    </div>
  );
}
