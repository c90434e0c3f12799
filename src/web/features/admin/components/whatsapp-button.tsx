import { MessageCircle } from "lucide-react";
import { isValidWhatsAppLink } from "@/shared/whatsapp";
import { buttonClasses } from "@/web/components/ui/button";
import { cn } from "@/web/lib/cn";

/** One tap to a WhatsApp chat (new tab), when the link is a real wa.me link; nothing otherwise. */
export function WhatsAppButton({
  url,
  name,
  compact,
  className,
}: {
  url: string | null | undefined;
  name: string;
  compact?: boolean;
  className?: string;
}) {
  if (!url || !isValidWhatsAppLink(url)) return null;
  return (
    <a
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`WhatsApp ${name} (opens in a new tab)`}
      className={cn(
        buttonClasses({ variant: "outline", size: "sm" }),
        "border-ok/40 text-ok hover:border-ok hover:bg-ok/10",
        compact && "px-3",
        className,
      )}
    >
      <MessageCircle aria-hidden="true" />
      WhatsApp
    </a>
  );
}
