// What can be done to a payment, each behind a confirmation: 'Confirm EFT received' on a
// pending EFT, 'Link client' on a payment with no client, 'Refund' (a credit note) on a paid one.
import { BadgeCheck, Link2, Undo2 } from "lucide-react";
import { useState } from "react";
import type { AdminClient, AdminPayment } from "@/shared/business-schemas";
import { formatRand } from "@/shared/money";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";
import { ClientPicker } from "../components/client-picker";
import { ConfirmDialog } from "../components/confirm-dialog";
import { Field } from "../components/form-field";
import { useMarkPaid } from "./api/mark-paid";
import { useUpdatePayment } from "./api/update-payment";
import { isPendingEft } from "./payment-labels";
import { RefundDialog } from "./refund-dialog";

type Open = "confirm" | "refund" | "link" | null;

const who = (p: AdminPayment) => p.client_full_name || p.client_email || "an unknown payer";
const failed = (title: string) => (error: Error) => toast.error(title, { description: error.message });

/** Whether anything can be done to this payment now. */
export function hasPaymentActions(payment: AdminPayment): boolean {
  return isPendingEft(payment) || (!payment.client_id && payment.status !== "refunded") || payment.status === "paid";
}

export function PaymentActions({ payment, className }: { payment: AdminPayment; className?: string }) {
  const [open, setOpen] = useState<Open>(null);
  const [note, setNote] = useState("");
  const markPaid = useMarkPaid();
  const canConfirm = isPendingEft(payment);
  const canLink = !payment.client_id && payment.status !== "refunded";
  const canRefund = payment.status === "paid";
  if (!canConfirm && !canLink && !canRefund) return null;

  const close = () => {
    setOpen(null);
    setNote("");
  };
  const noteField = (
    <Field label="Note (optional)" className="mt-2">
      {(control) => (
        <Input {...control} value={note} onChange={(e) => setNote(e.target.value)} placeholder="e.g. Seen on FNB statement 12 Mar" />
      )}
    </Field>
  );

  return (
    <div className={cn("flex flex-wrap gap-2", className)}>
      {canConfirm ? (
        <Button size="sm" onClick={() => setOpen("confirm")}>
          <BadgeCheck aria-hidden="true" />
          Confirm EFT received
        </Button>
      ) : null}
      {canLink ? (
        <Button size="sm" variant="outline" onClick={() => setOpen("link")}>
          <Link2 aria-hidden="true" />
          Link client
        </Button>
      ) : null}
      {canRefund ? (
        <Button size="sm" variant="ghost" onClick={() => setOpen("refund")}>
          <Undo2 aria-hidden="true" />
          Refund
        </Button>
      ) : null}

      <ConfirmDialog
        open={open === "confirm"}
        onOpenChange={(next) => !next && close()}
        title="Confirm EFT received?"
        description={
          <>
            {formatRand(payment.amount)} from {who(payment)} for {payment.package_name || "a package"}, reference{" "}
            <span className="font-mono text-ink">{payment.external_transaction_id}</span>. Check that it reflects in the bank first:
            confirming marks it paid{payment.client_id ? ", adds the package's time to the client" : ""} and sends a receipt.
          </>
        }
        confirmLabel="Confirm received"
        pendingLabel="Confirming..."
        pending={markPaid.isPending}
        onConfirm={() =>
          markPaid.mutate(
            { id: payment.id, note },
            {
              onSuccess: (paid) => {
                toast.success("Payment confirmed", { description: `${paid.external_transaction_id} is paid: ${formatRand(paid.amount)}.` });
                close();
              },
              onError: failed("Payment not confirmed"),
            },
          )
        }
      >
        {noteField}
      </ConfirmDialog>

      {open === "refund" ? <RefundDialog payment={payment} onClose={close} /> : null}
      {open === "link" ? <LinkClientDialog payment={payment} onClose={close} /> : null}
    </div>
  );
}

function LinkClientDialog({ payment, onClose }: { payment: AdminPayment; onClose: () => void }) {
  const update = useUpdatePayment();
  const [client, setClient] = useState<AdminClient | null>(null);
  const [error, setError] = useState<string>();
  return (
    <Dialog open onOpenChange={(next) => !next && !update.isPending && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Link to a client</DialogTitle>
          <DialogDescription>
            {formatRand(payment.amount)} · <span className="font-mono">{payment.external_transaction_id}</span>. Once linked, confirming it
            adds the package's time to that client.
          </DialogDescription>
        </DialogHeader>
        <ClientPicker label="Client" value={client} onChange={setClient} initialSearch={payment.client_email} error={error} />
        <DialogFooter>
          <Button variant="outline" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button
            disabled={update.isPending}
            onClick={() => {
              if (!client) {
                setError("Please choose a client");
                return;
              }
              update.mutate(
                { id: payment.id, patch: { client_id: client.id } },
                {
                  onSuccess: () => {
                    toast.success("Payment linked", {
                      description: `${payment.external_transaction_id} now belongs to ${client.full_name}.`,
                    });
                    onClose();
                  },
                  onError: (e) => setError(e.message),
                },
              );
            }}
          >
            {update.isPending ? "Linking..." : "Link client"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
