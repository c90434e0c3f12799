// The owner's two taps for a WhatsApp message the server cannot send itself (no Cloud API, or no
// template for it): "Open chat" opens WhatsApp with the message typed in (a new tab; nothing is
// sent until the owner presses Send there), then "Mark sent" records it. A message holding a
// secret (a reset link) keeps no link: "Prepare chat" asks the server for it first.
import { Check, KeyRound, MessageCircle } from "lucide-react";
import { useState } from "react";
import { isValidWhatsAppLink } from "@/shared/whatsapp";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";
import { phone } from "../../components/format";
import { useChatLink } from "./api/get-chat-link";
import type { OutboxMessage } from "./api/get-outbox";
import { useMarkOutboxSent } from "./api/mark-outbox-sent";

/**
 * "Open chat": WhatsApp in a new tab with the text typed in; once tapped it turns green, so the
 * owner sees which chats they have opened. `context` is screen-reader text after the visible
 * name (the name starts with what it shows, WCAG 2.5.3, then whose).
 */
export function OpenChatLink({ href, opened, onOpen, context }: { href: string; opened: boolean; onOpen: () => void; context: string }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      onClick={onOpen}
      className={buttonClasses({
        variant: opened ? "outline" : "primary",
        size: "sm",
        className: opened ? "border-ok/40 text-ok hover:border-ok hover:bg-ok/10" : undefined,
      })}
    >
      <MessageCircle aria-hidden="true" />
      Open chat<span className="sr-only">{context}</span>
    </a>
  );
}

/** A WhatsApp message waiting for the owner to send it by hand. */
export const awaitsOwner = (m: Pick<OutboxMessage, "channel" | "status">) => m.channel === "whatsapp" && m.status === "owner";

export function SendOnWhatsApp({ message, className }: { message: OutboxMessage; className?: string }) {
  const [link, setLink] = useState<string | null>(message.wa_link);
  const [opened, setOpened] = useState(false);
  const chatLink = useChatLink();
  const markSent = useMarkOutboxSent();
  const who = phone(message.recipient);

  const prepare = () =>
    chatLink.mutate(message.id, {
      onSuccess: (url) => setLink(url),
      onError: (error) => toast.error("No chat link", { description: error.message }),
    });
  const mark = () =>
    markSent.mutate(message.id, {
      onSuccess: () => toast.success("Marked as sent", { description: `The message to ${who} is done.` }),
      onError: (error) => toast.error("Not marked", { description: error.message }),
    });

  return (
    <div className={cn("flex flex-wrap items-center gap-2 lg:flex-nowrap", className)}>
      {link && isValidWhatsAppLink(link) ? (
        <OpenChatLink href={link} opened={opened} onOpen={() => setOpened(true)} context={` with ${who} on WhatsApp (new tab)`} />
      ) : (
        <Button variant="primary" size="sm" disabled={chatLink.isPending} onClick={prepare}>
          <KeyRound aria-hidden="true" />
          {chatLink.isPending ? "Preparing..." : "Prepare chat"}
          <span className="sr-only"> with {who} on WhatsApp (it holds a private link)</span>
        </Button>
      )}
      <Button variant={opened ? "primary" : "outline"} size="sm" disabled={markSent.isPending} onClick={mark}>
        <Check aria-hidden="true" />
        {markSent.isPending ? "Saving..." : "Mark sent"}
        <span className="sr-only"> for the message to {who}</span>
      </Button>
    </div>
  );
}
