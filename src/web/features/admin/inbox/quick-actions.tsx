// Beside a thread, what the owner most often does next for this person, without leaving the chat:
// a client — send the renew link (written into the reply box, to check and send), resend the line
// details (on the client's page: there is no resend endpoint, the Line panel shows the login to
// copy), record a payment (the payments dialog); a lead — convert them (the leads dialog). The
// dialogs need the full record, fetched when the button is tapped.
import { CreditCard, KeyRound, RefreshCw, UserPlus } from "lucide-react";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import type { InboxCustomer } from "@/shared/api";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { ConvertLeadDialog } from "../leads/convert-lead-dialog";
import { RecordPaymentDialog } from "../payments/record-payment-dialog";
import { renewLink, useClientRecord, useLeadRecord } from "./api/customer-records";

export function QuickActions({ customer, onDraft }: { customer: InboxCustomer; onDraft: (text: string) => void }) {
  return (
    <div className="flex flex-col gap-2">
      <h4 className="font-medium text-ink">Quick actions</h4>
      <div className="flex flex-col gap-2">
        {customer.kind === "client" ? <ClientActions customer={customer} onDraft={onDraft} /> : <ConvertLead id={customer.id} />}
      </div>
    </div>
  );
}

function ClientActions({ customer, onDraft }: { customer: InboxCustomer; onDraft: (text: string) => void }) {
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
      <Link
        to={`/admin/client/${customer.id}#panel-line`}
        className={buttonClasses({ variant: "outline", size: "sm", className: "justify-start" })}
      >
        <KeyRound aria-hidden="true" />
        Resend line details
        <span className="sr-only"> (on the client's page)</span>
      </Link>
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
