// "WhatsApp us" with a message already started, for a page where a visitor may need the business
// (a payment's result, a pay link that does not work): its WhatsApp, else its e-mail, else the
// support page.
import { MessageCircle } from "lucide-react";
import { Link } from "react-router";
import { buildWhatsAppLink } from "@/shared/whatsapp";
import { buttonClasses } from "@/web/components/ui/button";
import { useBranding } from "@/web/lib/queries/branding";

export function WhatsAppUsButton({ text, label = "WhatsApp us" }: { text: string; label?: string }) {
  const { branding } = useBranding();
  if (!branding.whatsappNumber) {
    return branding.supportEmail ? (
      <a href={`mailto:${branding.supportEmail}`} className={buttonClasses({ variant: "outline" })}>
        E-mail {branding.supportEmail}
      </a>
    ) : (
      <Link to="/support" className={buttonClasses({ variant: "outline" })}>
        Contact support
      </Link>
    );
  }
  const hello = `Hi${branding.companyName ? ` ${branding.companyName}` : ""}, ${text}`;
  return (
    <a
      href={buildWhatsAppLink(branding.whatsappNumber, hello)}
      target="_blank"
      rel="noopener noreferrer"
      className={buttonClasses({ variant: "outline" })}
    >
      <MessageCircle aria-hidden="true" />
      {label}
    </a>
  );
}
