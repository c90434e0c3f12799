// A lead's every detail: the fields the form saved, anything else the submission carried
// (payload), notes the team keeps, and the next steps (WhatsApp, convert, open the client). A
// lead from a returning client says whose it is; converting it renews that client.

import { ExternalLink, RefreshCw, UserPlus } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { type AdminLead, leadNotesSchema } from "@/shared/business-schemas";
import { DEVICE_LABELS, INTERNET_PLATFORM_LABELS } from "@/shared/options";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { FactList } from "../components/fact-list";
import { formatDateTime, humanise, orDash, phone } from "../components/format";
import { NotesForm } from "../components/notes-form";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "../components/sheet";
import { StatusBadge } from "../components/status-badge";
import { WhatsAppButton } from "../components/whatsapp-button";
import { useUpdateLead } from "./api/update-lead";
import { ConvertLeadDialog } from "./convert-lead-dialog";
import { FORM_TYPE_LABELS, returningClient } from "./lead-labels";
import { LeadStatusSelect } from "./lead-status-select";
import { ReturningClientNote } from "./returning-client-note";

/** Fields shown in their own rows; the rest of the payload is listed after them. */
const KNOWN_PAYLOAD_KEYS = new Set([
  "name",
  "firstName",
  "lastName",
  "email",
  "whatsapp",
  "package",
  "packageName",
  "packagePrice",
  "duration",
  "device",
  "internetPlatform",
  "otherPlatform",
  "internetSpeed",
  "communicationMethod",
  "marketingOptIn",
  "formType",
  "shownPrice",
  "immediateStartConsent",
]);

/** Labels for the other fields a submission may carry; any key not here is spelled out. */
const PAYLOAD_LABELS: Record<string, string> = {
  packageId: "Package (id)",
  source: "Came from",
  message: "Message",
  company: "Company",
  vatNumber: "VAT number",
  address: "Address",
};

/** 'otherPlatform' → 'Other platform': a field name as words, for a key we have no label for. */
export function payloadLabel(key: string): string {
  return PAYLOAD_LABELS[key] ?? humanise(key.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase());
}

/**
 * The price: what the package costs as saved, else what the order form showed the visitor
 * (one row, never 'Price —' beside another price).
 */
function priceRow(lead: AdminLead): string {
  if (lead.package_price) return lead.package_price;
  const shown = (lead.payload as { shownPrice?: unknown } | null)?.shownPrice;
  return typeof shown === "string" && shown.trim() ? `${shown} (as shown on the form)` : "—";
}

/** A paid order's ECT Act s44 consent, in words (nothing for a trial or an interest form). */
function immediateStartRow(lead: AdminLead): [string, string][] {
  const consent = (lead.payload as { immediateStartConsent?: unknown } | null)?.immediateStartConsent;
  if (typeof consent !== "boolean") return [];
  return [["Start", consent ? "At once (waived the 7-day cooling-off)" : "Not agreed to start at once"]];
}

function payloadText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (typeof value === "string" || typeof value === "number") return String(value);
  return JSON.stringify(value);
}

export function LeadDrawer({ lead, onOpenChange }: { lead: AdminLead | null; onOpenChange: (open: boolean) => void }) {
  return (
    <Sheet open={lead !== null} onOpenChange={onOpenChange}>
      <SheetContent side="right">{lead ? <LeadDetails key={lead.id} lead={lead} /> : null}</SheetContent>
    </Sheet>
  );
}

function LeadDetails({ lead }: { lead: AdminLead }) {
  const [converting, setConverting] = useState(false);
  const returning = returningClient(lead);
  const platform =
    lead.internet_platform === "other" && lead.other_platform
      ? `Other: ${lead.other_platform}`
      : (INTERNET_PLATFORM_LABELS[lead.internet_platform as keyof typeof INTERNET_PLATFORM_LABELS] ?? lead.internet_platform);
  const rows: [string, string][] = [
    ["Form", FORM_TYPE_LABELS[lead.form_type] ?? humanise(lead.form_type)],
    ["Received", formatDateTime(lead.created_at)],
    ["Email", orDash(lead.email)],
    ["WhatsApp", phone(lead.whatsapp)],
    ["Prefers", lead.communication_method === "email" ? "Email" : "WhatsApp"],
    ["Package", orDash(lead.package_name)],
    ["Price", priceRow(lead)],
    ["Duration", orDash(lead.duration)],
    ["Device", orDash(DEVICE_LABELS[lead.device as keyof typeof DEVICE_LABELS] ?? lead.device)],
    ["Internet", orDash(platform)],
    ["Internet speed", orDash(lead.internet_speed)],
    ["Marketing", lead.marketing_opt_in ? "Agreed to offers" : "No marketing"],
    ...immediateStartRow(lead),
    ["Updated", formatDateTime(lead.updated_at)],
  ];
  const extra = Object.entries(lead.payload ?? {}).filter(([key]) => !KNOWN_PAYLOAD_KEYS.has(key));

  return (
    <div className="flex flex-col gap-6 p-5 sm:p-6">
      <div className="flex flex-col gap-2 pr-12">
        <SheetTitle className="text-xl font-bold text-ink">{lead.name}</SheetTitle>
        <SheetDescription className="flex flex-wrap items-center gap-2 text-sm text-ink-muted">
          <StatusBadge status={lead.status} />
          <span>{FORM_TYPE_LABELS[lead.form_type] ?? humanise(lead.form_type)} lead</span>
        </SheetDescription>
      </div>

      <div className="flex flex-wrap gap-3">
        <WhatsAppButton url={lead.whatsapp_url} name={lead.name} />
        {lead.email ? (
          <a href={`mailto:${lead.email}`} className={buttonClasses({ variant: "outline", size: "sm" })}>
            Email
          </a>
        ) : null}
        {lead.status === "converted" && lead.client_id ? (
          <Link to={`/admin/client/${lead.client_id}`} className={buttonClasses({ variant: "secondary", size: "sm" })}>
            <ExternalLink aria-hidden="true" />
            Open client
          </Link>
        ) : (
          <Button size="sm" onClick={() => setConverting(true)}>
            {returning ? <RefreshCw aria-hidden="true" /> : <UserPlus aria-hidden="true" />}
            {returning ? "Renew client" : "Convert to client"}
          </Button>
        )}
      </div>

      {returning ? <ReturningClientNote client={returning} /> : null}

      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium text-ink">Status</span>
        <LeadStatusSelect lead={lead} className="w-full sm:w-56" />
      </div>

      <section aria-labelledby="lead-submission" className="flex flex-col gap-3">
        <h3 id="lead-submission" className="text-sm font-semibold tracking-wide text-ink-subtle uppercase">
          Submission
        </h3>
        <FactList
          rows={[...rows, ...extra.map(([key, value]): [string, string] => [payloadLabel(key), payloadText(value)])]}
          className="grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-4 gap-y-2 rounded-xl border border-line bg-surface-raised p-4 text-sm"
        />
      </section>

      <LeadNotes lead={lead} />

      <ConvertLeadDialog lead={lead} open={converting} onOpenChange={setConverting} />
    </div>
  );
}

function LeadNotes({ lead }: { lead: AdminLead }) {
  const update = useUpdateLead();
  return (
    <NotesForm
      notes={lead.notes}
      schema={leadNotesSchema}
      save={(notes) => update.mutateAsync({ id: lead.id, patch: { notes } })}
      label="Notes"
      rows={4}
      placeholder="What was said, what's next"
    />
  );
}
