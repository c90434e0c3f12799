// WhatsApp and e-mail buttons from the business's branding, with a message already started.
import { Mail, MessageCircle } from "lucide-react";
import { buildWhatsAppLink, formatPhoneForDisplay } from "@/shared/whatsapp";
import { buttonClasses } from "@/web/components/ui/button";
import { useBranding } from "@/web/lib/queries/branding";

export function ContactButtons({ message }: { message: (companyName: string) => string }) {
  const { branding } = useBranding();
  if (!branding.whatsappNumber && !branding.supportEmail) return null;
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
      {branding.whatsappNumber ? (
        <a
          href={buildWhatsAppLink(branding.whatsappNumber, message(branding.companyName))}
          target="_blank"
          rel="noopener noreferrer"
          className={buttonClasses()}
        >
          <MessageCircle aria-hidden="true" />
          WhatsApp {formatPhoneForDisplay(branding.whatsappNumber)}
        </a>
      ) : null}
      {branding.supportEmail ? (
        <a href={`mailto:${branding.supportEmail}`} className={buttonClasses({ variant: "outline" })}>
          <Mail aria-hidden="true" />
          {branding.supportEmail}
        </a>
      ) : null}
    </div>
  );
}

/** 'Hi StreamDesk, ' or 'Hi, ' when the name is not known yet. */
export const greeting = (companyName: string) => `Hi${companyName ? ` ${companyName}` : ""}, `;
