// Beside a thread: who the number belongs to — a client's status, term, package, panel username
// and last payments, or the lead's status — with a link to their record and the quick actions.
import { Link } from "react-router";
import type { InboxThread } from "@/shared/api";
import { subscriptionStatus } from "@/shared/client-schemas";
import { formatRand } from "@/shared/money";
import { FactList } from "../components/fact-list";
import { formatDate, orDash } from "../components/format";
import { StatusBadge } from "../components/status-badge";
import { QuickActions } from "./quick-actions";

export function CustomerFacts({ thread, onDraft }: { thread: InboxThread; onDraft: (text: string) => void }) {
  const customer = thread.customer;
  return (
    <aside
      aria-labelledby="inbox-customer-title"
      className="flex min-w-0 flex-col gap-3 rounded-2xl border border-line bg-surface p-4 text-sm"
    >
      <h3 id="inbox-customer-title" className="font-semibold text-ink">
        {customer ? (customer.kind === "client" ? "Client" : "Lead") : "Not a client yet"}
      </h3>
      {!customer ? (
        <p className="text-ink-muted">Nobody with this number is in your clients or leads.</p>
      ) : (
        <>
          <FactList
            className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-2"
            rows={[
              ["Name", customer.name],
              [
                "Status",
                // a client's status as the clients list shows it (expiring within the week), one word everywhere
                <StatusBadge
                  key="status"
                  status={
                    customer.kind === "client"
                      ? subscriptionStatus({ status: customer.status, subscription_end: customer.subscription_end ?? null })
                      : customer.status
                  }
                />,
              ],
              ...(customer.kind === "client"
                ? ([
                    ["Ends", customer.subscription_end ? formatDate(customer.subscription_end) : "—"],
                    ["Package", orDash(customer.package)],
                    ["Panel username", orDash(customer.panel_username)],
                  ] as [string, string][])
                : ([["Package", orDash(customer.package)]] as [string, string][])),
              ["E-mail", orDash(customer.email)],
            ]}
          />
          <div className="flex flex-col gap-2">
            <h4 className="font-medium text-ink">Last payments</h4>
            {customer.payments.length ? (
              <ul className="flex flex-col gap-2">
                {customer.payments.map((p) => (
                  <li key={p.id} className="flex min-w-0 flex-wrap items-center justify-between gap-2">
                    <span className="min-w-0">
                      {formatRand(p.amount)} <span className="text-ink-subtle">· {formatDate(p.at)}</span>
                    </span>
                    <StatusBadge status={p.status} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-ink-muted">No payments yet.</p>
            )}
          </div>
          <QuickActions customer={customer} number={thread.number} messages={thread.messages} onDraft={onDraft} />
          <Link
            to={customer.kind === "client" ? `/admin/client/${customer.id}` : `/admin/leads?q=${thread.number}`}
            className="inline-flex min-h-11 items-center text-accent underline-offset-4 hover:underline"
          >
            {customer.kind === "client" ? "Open the client's record" : "Find the lead"}
          </Link>
        </>
      )}
    </aside>
  );
}
