// What a suspended client sees, on every portal page: that the account is suspended, how to
// reach the business (WhatsApp and the support e-mail from the branding), and Sign out.
// Nothing else but "Download my data" and their correction and erasure requests (POPIA s23 and
// s24: their data is theirs): no subscription, line, payments, content requests or renewing (the
// server refuses them all with 403 'suspended'; a payment would not lift the suspension anyway).
import { AlertOctagon, Mail, MessageCircle } from "lucide-react";
import type { ClientSummary } from "@/shared/client-schemas";
import { SUSPENDED_MESSAGE } from "@/shared/client-schemas";
import { buildWhatsAppLink, formatPhoneForDisplay } from "@/shared/whatsapp";
import { buttonClasses } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { useBranding } from "@/web/lib/queries/branding";
import { DataRequestsCard } from "./data-requests-card";
import { DownloadMyDataLink } from "./download-my-data";

export function SuspendedPage({ client }: { client: ClientSummary }) {
  const { branding, isLoading } = useBranding();
  const whatsapp = branding.whatsappNumber
    ? buildWhatsAppLink(branding.whatsappNumber, `Hi, my account (username: ${client.username}) is suspended. Can you help me sort it out?`)
    : null;
  const email = branding.supportEmail;
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-5" data-portal="suspended">
      <p className="min-w-0 truncate text-sm text-ink-muted">
        Signed in as <span className="font-semibold text-ink">{client.full_name || client.username}</span>
      </p>
      <Card className="flex flex-col gap-5 p-6 sm:p-8" role="alert" aria-labelledby="suspended-heading">
        <span className="flex size-12 items-center justify-center rounded-2xl bg-bad/15 text-bad">
          <AlertOctagon aria-hidden="true" className="size-7" />
        </span>
        <div className="flex flex-col gap-2">
          <h1 id="suspended-heading" className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">
            Your account is suspended
          </h1>
          <p className="text-ink-muted">{SUSPENDED_MESSAGE}</p>
          <p className="text-sm text-ink-subtle">Until then your line, payments and the rest of the portal are unavailable.</p>
        </div>
        <section aria-labelledby="suspended-contact" className="flex flex-col gap-3">
          <h2 id="suspended-contact" className="text-sm font-semibold tracking-wide text-ink-muted uppercase">
            Contact {branding.companyName || "us"}
          </h2>
          {whatsapp || email ? (
            <div className="flex flex-col gap-3">
              {whatsapp ? (
                <a href={whatsapp} target="_blank" rel="noopener noreferrer" className={buttonClasses({ variant: "primary" })}>
                  <MessageCircle aria-hidden="true" />
                  WhatsApp {formatPhoneForDisplay(branding.whatsappNumber)}
                </a>
              ) : null}
              {email ? (
                <a href={`mailto:${email}`} className={buttonClasses({ variant: "outline", className: "min-w-0" })}>
                  <Mail aria-hidden="true" />
                  <span className="truncate">{email}</span>
                </a>
              ) : null}
            </div>
          ) : (
            <p className="text-sm text-ink-muted">
              {isLoading ? "Loading our contact details..." : "Please contact us the way you signed up."}
            </p>
          )}
          <p className="text-sm text-ink-subtle">Please have your username ready: {client.username}</p>
        </section>
        <DownloadMyDataLink />
      </Card>
      <DataRequestsCard />
    </div>
  );
}
