// 'Returning client: Thabo Mokoena (thabo.m)': a lead whose WhatsApp number or e-mail is an
// existing client's, linking to them. Shown until the lead is converted. The list's compact
// form is plain text: it sits inside the row's open button, where a link may not go.
import { RefreshCw } from "lucide-react";
import { Link } from "react-router";
import type { AdminLead } from "@/shared/business-schemas";

type ReturningClient = NonNullable<AdminLead["client"]>;

export function ReturningClientNote({ client, compact }: { client: ReturningClient; compact?: boolean }) {
  const who = `${client.full_name} (${client.username})`;
  if (compact) {
    return (
      <span className="flex items-center gap-1.5 text-xs font-normal text-accent-ink">
        <RefreshCw aria-hidden="true" className="size-3 shrink-0" />
        Returning client: {who}
      </span>
    );
  }
  return (
    <p className="flex items-center gap-2 rounded-xl border border-accent/40 bg-accent/10 px-3 py-2 text-sm text-accent-ink">
      <RefreshCw aria-hidden="true" className="size-4 shrink-0" />
      <span className="min-w-0">
        Returning client:{" "}
        <Link to={`/admin/client/${client.id}`} className="font-semibold underline-offset-2 hover:underline">
          {who}
        </Link>
      </span>
    </p>
  );
}
