// The parts every payment result page is built of: the next steps with their actions, and the
// ways to reach the business (its WhatsApp, else its e-mail, else the support page).
import { Mail } from "lucide-react";
import type { ReactNode } from "react";
import { buttonClasses } from "@/web/components/ui/button";
import { WhatsAppUsButton } from "@/web/components/whatsapp-us-button";
import { cn } from "@/web/lib/cn";
import { useBranding } from "@/web/lib/queries/branding";

export function Steps({ title, actions, children }: { title: string; actions: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby="next-steps-heading" className="flex flex-col gap-4">
      <h2 id="next-steps-heading" className="text-lg font-semibold text-ink">
        {title}
      </h2>
      <ul className="flex list-disc flex-col gap-2 pl-5 text-ink-muted marker:text-accent-ink">{children}</ul>
      <Actions>{actions}</Actions>
    </section>
  );
}

export function Actions({ children, center = false }: { children: ReactNode; center?: boolean }) {
  return <div className={cn("mt-2 flex flex-col gap-3 sm:flex-row sm:flex-wrap", center && "sm:justify-center")}>{children}</div>;
}

/** The business's WhatsApp and e-mail, each where branding has it (and support when it has neither). */
export function ContactButtons({ text }: { text: string }) {
  const { branding } = useBranding();
  return (
    <>
      <WhatsAppButton text={text} />
      {branding.whatsappNumber && branding.supportEmail ? (
        <a href={`mailto:${branding.supportEmail}`} className={buttonClasses({ variant: "outline" })}>
          <Mail aria-hidden="true" />
          E-mail {branding.supportEmail}
        </a>
      ) : null}
    </>
  );
}

/** The payment pages' name for the shared button (they import it with the steps). */
export const WhatsAppButton = WhatsAppUsButton;
