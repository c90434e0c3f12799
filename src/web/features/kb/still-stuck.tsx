// 'Still stuck? WhatsApp us': a person to talk to, from the business's own branding.
import { Mail, MessageCircle } from "lucide-react";
import { buildWhatsAppLink, formatPhoneForDisplay } from "@/shared/whatsapp";
import { buttonClasses } from "@/web/components/ui/button";
import { useBranding } from "@/web/lib/queries/branding";

export function StillStuck({ topic }: { topic?: string }) {
  const { branding } = useBranding();
  const { whatsappNumber, supportEmail, companyName } = branding;
  if (!whatsappNumber && !supportEmail) return null;
  const greeting = `Hi${companyName ? ` ${companyName}` : ""}, `;
  const text = topic ? `${greeting}I read "${topic}" in the help centre and I still need help.` : `${greeting}I need some help, please.`;
  return (
    <aside
      aria-labelledby="still-stuck-heading"
      className="flex flex-col gap-4 rounded-card border border-line bg-surface-raised p-6 sm:p-8"
    >
      <h2 id="still-stuck-heading" className="text-xl font-semibold text-ink">
        Still stuck? WhatsApp us
      </h2>
      <p className="text-pretty text-ink-muted">
        Send us a message with what you see on the screen (a photo helps) and we'll sort it out with you.
      </p>
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        {whatsappNumber ? (
          <a href={buildWhatsAppLink(whatsappNumber, text)} target="_blank" rel="noopener noreferrer" className={buttonClasses()}>
            <MessageCircle aria-hidden="true" />
            WhatsApp {formatPhoneForDisplay(whatsappNumber)}
          </a>
        ) : null}
        {supportEmail ? (
          <a href={`mailto:${supportEmail}`} className={buttonClasses({ variant: "outline" })}>
            <Mail aria-hidden="true" />
            {supportEmail}
          </a>
        ) : null}
      </div>
    </aside>
  );
}
