// A client's place among possible duplicates (issue 24), at the top of their page:
//  - flagged (possible_duplicate_of): who they may be, what matched, why it was not proven, and the
//    owner's two answers: merge into the other client, or "not the same person";
//  - merged (merged_into): where they went, and nothing left to do;
//  - the kept side (flagged_duplicates): the clients flagged as possibly this one.
import { GitMerge, TriangleAlert, UserX } from "lucide-react";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import type { AdminClientDetail, RelatedClient } from "@/shared/business-schemas";
import { toStoredWhatsApp } from "@/shared/whatsapp";
import { Button } from "@/web/components/ui/button";
import { toast } from "@/web/lib/toast";
import { ConfirmDialog } from "../components/confirm-dialog";
import { useDismissDuplicate, useMergeDuplicate } from "./api/duplicates";

const clientPath = (id: string) => `/admin/client/${encodeURIComponent(id)}`;
const linkClasses = "inline-flex min-h-11 items-center font-semibold text-accent-ink underline-offset-2 hover:underline";

/** What the two share, in words: 'same WhatsApp number', 'same e-mail address', both, or ''. */
export function matchedOn(client: Pick<RelatedClient, "whatsapp" | "email">, other: Pick<RelatedClient, "whatsapp" | "email">): string {
  const number = (v: string) => (v ? (toStoredWhatsApp(v) ?? v) : "");
  const sameNumber = Boolean(client.whatsapp) && number(client.whatsapp) === number(other.whatsapp);
  const sameEmail = Boolean(client.email) && client.email.trim().toLowerCase() === other.email.trim().toLowerCase();
  return [sameNumber ? "same WhatsApp number" : "", sameEmail ? "same e-mail address" : ""].filter(Boolean).join(" and ");
}

export function DuplicateBanner({ client }: { client: AdminClientDetail }) {
  if (client.merged_into) return <MergedBanner client={client} />;
  return (
    <>
      {client.possible_duplicate_of ? <FlaggedBanner client={client} /> : null}
      {client.flagged_duplicates.length ? <FlaggedList clients={client.flagged_duplicates} /> : null}
    </>
  );
}

function MergedBanner({ client }: { client: AdminClientDetail }) {
  const kept = client.related;
  return (
    <section role="status" aria-labelledby="merged-heading" className="rounded-card border border-line-strong bg-surface-raised p-4 sm:p-5">
      <h2 id="merged-heading" className="flex items-center gap-2 text-base font-semibold text-ink">
        <GitMerge aria-hidden="true" className="size-5 shrink-0 text-ink-muted" />
        {kept ? `Merged into ${kept.full_name} (${kept.username})` : "Merged into another client"}
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        This account's payments, invoices and messages are now on the other client's page. It stays here only for the history.
      </p>
      <Link to={clientPath(kept?.id ?? client.merged_into ?? "")} className={linkClasses}>
        Open {kept ? `${kept.full_name}'s` : "their"} page
      </Link>
    </section>
  );
}

function FlaggedBanner({ client }: { client: AdminClientDetail }) {
  const other = client.related;
  const [confirming, setConfirming] = useState(false);
  const merge = useMergeDuplicate();
  const dismiss = useDismissDuplicate();
  const navigate = useNavigate();
  const busy = merge.isPending || dismiss.isPending;
  if (!other) {
    // the other client is gone (deleted or merged itself): only dismissing is left
    return (
      <section role="status" aria-labelledby="duplicate-heading" className="rounded-card border border-warn/40 bg-warn/10 p-4 sm:p-5">
        <h2 id="duplicate-heading" className="text-base font-semibold text-ink">
          Flagged as a possible duplicate of a client who is no longer here
        </h2>
        <DismissButton client={client} dismiss={dismiss} disabled={busy} />
      </section>
    );
  }
  const matched = matchedOn(client, other);

  const runMerge = () =>
    merge.mutate(client.id, {
      onSuccess: ({ kept }) => {
        toast.success("Clients merged", { description: `${client.full_name}'s account is now part of ${kept.full_name}'s.` });
        setConfirming(false);
        navigate(clientPath(kept.id));
      },
      onError: (error) => {
        setConfirming(false);
        toast.error("Not merged", { description: error.message });
      },
    });

  return (
    <section role="status" aria-labelledby="duplicate-heading" className="rounded-card border border-warn/40 bg-warn/10 p-4 sm:p-5">
      <h2 id="duplicate-heading" className="flex items-start gap-2 text-base font-semibold text-ink">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-warn" />
        <span>
          Possible duplicate of {other.full_name} ({other.username})
        </span>
      </h2>
      {matched ? <p className="mt-1 text-sm font-medium text-ink">Matched on the {matched}.</p> : null}
      <p className="mt-1 text-sm text-ink-muted">
        This account was made by a payment whose payer gave {other.full_name}'s number or e-mail but did not prove it was them.
      </p>
      <Link to={clientPath(other.id)} className={linkClasses}>
        Open {other.full_name}'s page
      </Link>
      <div className="mt-2 flex flex-wrap gap-2">
        <Button size="sm" onClick={() => setConfirming(true)} disabled={busy}>
          <GitMerge aria-hidden="true" />
          Merge into {other.username}
        </Button>
        <DismissButton client={client} dismiss={dismiss} disabled={busy} />
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Merge ${client.full_name} into ${other.full_name}?`}
        description={`${client.full_name} (${client.username}) becomes part of ${other.full_name} (${other.username}).`}
        confirmLabel={`Merge into ${other.username}`}
        pendingLabel="Merging..."
        destructive
        pending={merge.isPending}
        onConfirm={runMerge}
      >
        <ul className="flex list-disc flex-col gap-1.5 pl-5 text-sm text-ink-muted">
          <li>Their payments, invoices, credit notes and messages move to {other.full_name}.</li>
          <li>The time they paid for is added to {other.full_name}'s term, through the lifecycle, and the panel extends that line.</li>
          <li>
            {other.full_name}'s line stays. This account's line is switched off, and the account stays only for the history, marked as
            merged.
          </li>
          <li className="font-semibold text-ink">This can't be undone.</li>
        </ul>
      </ConfirmDialog>
    </section>
  );
}

function DismissButton({
  client,
  dismiss,
  disabled,
}: {
  client: AdminClientDetail;
  dismiss: ReturnType<typeof useDismissDuplicate>;
  disabled: boolean;
}) {
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={disabled}
      onClick={() =>
        dismiss.mutate(client.id, {
          onSuccess: () => toast.success("Flag removed", { description: `${client.full_name} is kept as a client of their own.` }),
          onError: (error) => toast.error("Flag not removed", { description: error.message }),
        })
      }
    >
      <UserX aria-hidden="true" />
      {dismiss.isPending ? "Saving..." : "Not the same person"}
    </Button>
  );
}

function FlaggedList({ clients }: { clients: RelatedClient[] }) {
  return (
    <section aria-labelledby="flagged-heading" className="rounded-card border border-warn/40 bg-warn/10 p-4 sm:p-5">
      <h2 id="flagged-heading" className="flex items-center gap-2 text-base font-semibold text-ink">
        <TriangleAlert aria-hidden="true" className="size-5 shrink-0 text-warn" />
        Possible duplicates
      </h2>
      <p className="mt-1 text-sm text-ink-muted">
        Made by payments whose payer gave this client's number or e-mail without proving it. Open one to merge it here or dismiss it.
      </p>
      <ul className="mt-1 flex flex-col">
        {clients.map((c) => (
          <li key={c.id}>
            <Link to={clientPath(c.id)} className={linkClasses}>
              {c.full_name} ({c.username})
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
