// Beside a thread, what the owner most often does next for this person, without leaving the chat:
// a client — send the renew link (written into the reply box, to check and send), resend the line
// details (queued again through the outbox, once per tap, its state shown live:
// resend-line-details.tsx), record a payment (the payments dialog); a lead — convert them (the
// leads dialog). The dialogs need the full record, fetched when the button is tapped.
import { CreditCard, RefreshCw, UserPlus } from "lucide-react";
import { useEffect, useState } from "react";
import type { InboxCustomer, InboxMessage } from "@/shared/api";
import { Button } from "@/web/components/ui/button";
import { toast } from "@/web/lib/toast";
import { ConvertLeadDialog } from "../leads/convert-lead-dialog";
import { RecordPaymentDialog } from "../payments/record-payment-dialog";
import { renewLink, useClientRecord, useLeadRecord } from "./api/customer-records";
import { ResendLineDetails } from "./resend-line-details";

interface QuickActionsProps {
  customer: InboxCustomer;
  /** the conversation's number and messages (the line details' live state is read from them) */
  number: string;
  messages: InboxMessage[];
  onDraft: (text: string) => void;
}

export function QuickActions({ customer, number, messages, onDraft }: QuickActionsProps) {
  return (
    <div className="flex flex-col gap-2">
      <h4 className="font-medium text-ink">Quick actions</h4>
      <div className="flex flex-col gap-2">
        {customer.kind === "client" ? (
          <ClientActions customer={customer} number={number} messages={messages} onDraft={onDraft} />
        ) : (
          <ConvertLead id={customer.id} />
        )}
      </div>
    </div>
  );
}

function ClientActions({ customer, number, messages, onDraft }: QuickActionsProps) {
  const firstName = customer.name.split(/\s+/)[0] || customer.name;
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        className="justify-start"
        onClick={() => onDraft(`Hi ${firstName}, you can renew your subscription here: ${renewLink(window.location.origin)}`)}
      >
        <RefreshCw aria-hidden="true" />
        Send renew link
      </Button>
      <ResendLineDetails number={number} messages={messages} />
      <RecordPayment id={customer.id} />
    </>
  );
}

function RecordPayment({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const client = useClientRecord(id, open);
  useFailed(open, client.isFetching ? null : client.error, "The client could not be loaded", () => setOpen(false));
  const loading = open && client.isPending;
  return (
    <>
      <Button variant="outline" size="sm" className="justify-start" onClick={() => setOpen(true)} disabled={loading}>
        <CreditCard aria-hidden="true" />
        {loading ? "Loading..." : "Record payment"}
      </Button>
      {client.data ? <RecordPaymentDialog client={client.data} open={open} onOpenChange={setOpen} /> : null}
    </>
  );
}

function ConvertLead({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const lead = useLeadRecord(id, open);
  useFailed(open, lead.isFetching ? null : lead.error, "The lead could not be loaded", () => setOpen(false));
  const loading = open && lead.isPending;
  return (
    <>
      <Button size="sm" className="justify-start" onClick={() => setOpen(true)} disabled={loading}>
        <UserPlus aria-hidden="true" />
        {loading ? "Loading..." : "Convert lead"}
      </Button>
      {lead.data ? <ConvertLeadDialog lead={lead.data} open={open} onOpenChange={setOpen} /> : null}
    </>
  );
}

/** A record that would not load: say so and let the button be tapped again. */
function useFailed(open: boolean, error: Error | null, title: string, close: () => void) {
  useEffect(() => {
    if (open && error) {
      toast.error(title, { description: error.message });
      close();
    }
  }, [open, error, title, close]);
}
