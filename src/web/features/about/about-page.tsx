// /about: the about section as a page of its own, with how to reach the team and where to go next.
import { ArrowRight, Clock, Mail, MessageCircle } from "lucide-react";
import { Link } from "react-router";
import { SUPPORT_HOURS } from "@/shared/constants";
import { buildWhatsAppLink, formatPhoneForDisplay } from "@/shared/whatsapp";
import { buttonClasses } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";
import { useBranding } from "@/web/lib/queries/branding";
import { AboutSection } from "./about-section";

export function AboutPage() {
  const { branding } = useBranding();
  return (
    <>
      <AboutSection headingLevel={1} />
      <Container className="py-16 sm:py-20">
        <div className="grid gap-6 md:grid-cols-3">
          <div className="flex flex-col gap-3 rounded-card border border-line bg-surface p-6">
            <Clock aria-hidden="true" className="size-6 text-accent-ink" />
            <h2 className="text-lg font-semibold text-ink">When we're here</h2>
            <p className="text-sm text-ink-muted">Support on WhatsApp and e-mail, {SUPPORT_HOURS}.</p>
          </div>
          <div className="flex flex-col gap-3 rounded-card border border-line bg-surface p-6">
            <MessageCircle aria-hidden="true" className="size-6 text-ok" />
            <h2 className="text-lg font-semibold text-ink">WhatsApp</h2>
            {branding.whatsappNumber ? (
              <a
                href={buildWhatsAppLink(branding.whatsappNumber)}
                target="_blank"
                rel="noopener noreferrer"
                className="tabular inline-flex min-h-11 items-center text-sm text-accent-ink underline underline-offset-2"
              >
                {formatPhoneForDisplay(branding.whatsappNumber)}
              </a>
            ) : (
              <p className="text-sm text-ink-muted">Message us from the order form.</p>
            )}
          </div>
          <div className="flex flex-col gap-3 rounded-card border border-line bg-surface p-6">
            <Mail aria-hidden="true" className="size-6 text-sky-300" />
            <h2 className="text-lg font-semibold text-ink">E-mail</h2>
            {branding.supportEmail ? (
              <a
                href={`mailto:${branding.supportEmail}`}
                className="inline-flex min-h-11 items-center text-sm break-all text-accent-ink underline underline-offset-2"
              >
                {branding.supportEmail}
              </a>
            ) : (
              <p className="text-sm text-ink-muted">See the support page.</p>
            )}
          </div>
        </div>
        <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <Link to="/pricing" className={buttonClasses()}>
            See the packages
            <ArrowRight aria-hidden="true" />
          </Link>
          <Link to="/how-to-use" className={buttonClasses({ variant: "outline" })}>
            How it works
          </Link>
        </div>
      </Container>
    </>
  );
}
