// Automatic renewals on the payments page (issue 44): how many clients renew by a kept card, the
// charges due in the next 7 days (amount and date), the recent failures, and "Run due renewals
// now" beside the hourly job (each term is charged once, however often it runs).
import { RefreshCw } from "lucide-react";
import { formatDate } from "@/shared/dates";
import { formatRand } from "@/shared/money";
import { Button } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { toast } from "@/web/lib/toast";
import { useRenewals, useRunRenewals } from "./api/renewals";

export function RenewalsCard({ className }: { className?: string }) {
  const renewals = useRenewals();
  const run = useRunRenewals();
  const data = renewals.data;
  if (!data || (data.autoRenewing === 0 && data.failures.length === 0)) return null;

  const runNow = () =>
    run.mutate(undefined, {
      onSuccess: (r) =>
        toast.success("Due renewals run", {
          description: `${r.charged} charged, ${r.declined} declined, ${r.unknown} awaiting an answer, ${r.noticed} told of a coming charge.`,
        }),
      onError: (error) => toast.error("Run Failed", { description: error instanceof Error ? error.message : String(error) }),
    });

  return (
    <Card className={`p-5 ${className ?? ""}`} aria-labelledby="renewals-heading" data-testid="renewals-card">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="renewals-heading" className="flex items-center gap-2 text-base font-semibold text-ink">
          <RefreshCw aria-hidden="true" className="size-4 text-accent-ink" />
          Automatic renewals: {data.autoRenewing} {data.autoRenewing === 1 ? "client" : "clients"}
        </h2>
        <Button variant="outline" onClick={runNow} disabled={run.isPending}>
          Run due renewals now
        </Button>
      </div>
      <p className="mt-2 text-sm text-ink-muted">
        {data.due.length
          ? `Due in the next 7 days: ${data.due.map((d) => `${d.name} ${formatRand(d.amount)} on ${formatDate(d.chargeOn)}`).join("; ")}.`
          : "No charges due in the next 7 days."}
      </p>
      {data.failures.length ? (
        <ul className="mt-2 list-disc pl-5 text-sm text-bad">
          {data.failures.map((f) => (
            <li key={`${f.clientId}-${f.termEnd}`}>
              {f.name}: {f.status === "unknown" ? "no clear answer from the card provider" : "declined"} ({f.reason || "no reason given"})
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}
