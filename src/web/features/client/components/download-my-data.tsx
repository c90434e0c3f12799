// "Download my data" (POPIA s23): everything we hold of the client as one JSON file. On the
// account page, and on the suspended page too: their data is theirs whatever their standing.
import { Download } from "lucide-react";
import { buttonClasses } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { DATA_EXPORT_URL } from "../api/data-export";

export function DownloadMyDataLink({ className }: { className?: string }) {
  return (
    <a href={DATA_EXPORT_URL} download className={buttonClasses({ variant: "outline", className })}>
      <Download aria-hidden="true" />
      Download my data
    </a>
  );
}

export function DownloadMyDataCard() {
  return (
    <Card className="p-5 sm:p-6" aria-labelledby="my-data-heading">
      <h2 id="my-data-heading" className="flex items-center gap-2 text-lg font-semibold text-ink">
        <Download aria-hidden="true" className="size-5 text-accent-ink" />
        Your data
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        One file with what we hold about you: your details, line, orders, payments, invoices, messages, consents, and who else received your
        data to serve you (payment providers, WhatsApp, our e-mail service, the IPTV panel).
      </p>
      <DownloadMyDataLink className="mt-4" />
    </Card>
  );
}
