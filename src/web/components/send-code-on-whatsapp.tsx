// "Verify by writing to us" (issue 41): the one button beside a code field that opens WhatsApp with
// a message to the shop holding a code (the API's waLink). Sent from the number being proved, it
// proves it; the page finds out by itself. The trial, the portal's new number and the payer use it.
import { MessageCircle } from "lucide-react";
import { buttonClasses } from "@/web/components/ui/button";

export const SEND_CODE_ON_WHATSAPP = "Send the code on WhatsApp";

export function SendCodeOnWhatsApp({ href, primary = false, className }: { href: string; primary?: boolean; className?: string }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={buttonClasses({ variant: primary ? "primary" : "outline", size: "md", className: `self-start ${className ?? ""}` })}
    >
      <MessageCircle aria-hidden="true" />
      {SEND_CODE_ON_WHATSAPP}
    </a>
  );
}
