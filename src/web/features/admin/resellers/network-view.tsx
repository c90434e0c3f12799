// The owner's network (issue 45 item 5): the panel runway with what partners are likely to buy,
// per partner per month the credits sold through the shop, given by hand and spent on lines, the
// lines made; and partners' credit orders, a refused one sent again once the owner topped up.
import { formatDate, formatDateTime } from "@/shared/dates";
import { formatRand } from "@/shared/money";
import { Button } from "@/web/components/ui/button";
import { toast } from "@/web/lib/toast";
import { useCreditOrders, useNetwork, useRetryOrder } from "./api/network";

const ORDER_STATUS: Record<string, string> = {
  pending: "Not paid",
  paid: "Paid: moving",
  delivered: "Credits moved",
  refused: "Refused: top up, then send again",
  failed: "Panel unreachable: retrying",
  unknown: "Check the panel, then send again",
};

export function NetworkView() {
  const network = useNetwork();
  const orders = useCreditOrders();
  const retry = useRetryOrder();
  const view = network.data;
  return (
    <section aria-label="Your network" className="flex flex-col gap-4 rounded-2xl border border-line p-4">
      <h2 className="text-lg font-semibold text-ink">Your network</h2>
      {network.isError ? <p className="text-sm text-bad">The network could not be read. Please try again.</p> : null}
      {view ? (
        <>
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" data-testid="network-runway">
            <div>
              <dt className="text-ink-subtle">Your credits</dt>
              <dd className="font-semibold text-ink">{view.runway.owner_credits ?? "—"}</dd>
            </div>
            <div>
              <dt className="text-ink-subtle">Renewals, 30 days</dt>
              <dd>
                {view.runway.renewals_due_30d} ({view.runway.renewal_credits_30d ?? "?"} credits)
              </dd>
            </div>
            <div>
              <dt className="text-ink-subtle">Partners likely to buy, 30 days</dt>
              <dd>{view.runway.partner_demand_30d} credits</dd>
            </div>
            <div>
              <dt className="text-ink-subtle">Runway</dt>
              <dd className={view.runway.runs_out_on ? "font-semibold text-warn" : "text-ink"}>
                {view.runway.days_left === null
                  ? "Not known"
                  : view.runway.runs_out_on
                    ? `Runs out about ${formatDate(`${view.runway.runs_out_on}T12:00:00+02:00`)}`
                    : `${view.runway.days_left} days`}
              </dd>
            </div>
          </dl>
          {/* scrolls sideways on a phone: a keyboard reaches it too (a focusable, named region) */}
          <section
            className="overflow-x-auto rounded-md focus-visible:outline-2 focus-visible:outline-accent"
            aria-label="Credits per partner per month"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard (axe: scrollable-region-focusable)
            tabIndex={0}
          >
            <table className="w-full min-w-[32rem] text-left text-sm">
              <caption className="sr-only">Credits sold, given and spent, and lines made, per partner per month</caption>
              <thead>
                <tr className="border-b border-line text-ink-subtle">
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Month
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Partner
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Sold
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Given
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Spent
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    Lines
                  </th>
                </tr>
              </thead>
              <tbody>
                {[...view.months].reverse().flatMap((month) =>
                  month.partners
                    .filter((p) => p.sold || p.given || p.spent || p.lines)
                    .map((p) => (
                      <tr key={`${month.month}-${p.id}`} className="border-b border-line">
                        <td className="py-2 pr-3">{month.month}</td>
                        <td className="py-2 pr-3">{p.name}</td>
                        <td className="py-2 pr-3">{p.sold}</td>
                        <td className="py-2 pr-3">{p.given}</td>
                        <td className="py-2 pr-3">{p.spent}</td>
                        <td className="py-2">{p.lines}</td>
                      </tr>
                    )),
                )}
              </tbody>
            </table>
          </section>
          <p className="text-xs text-ink-subtle">
            Lines per partner, all time: {view.partners.map((p) => `${p.name} ${p.lines}`).join(" · ") || "no partners yet"}.
          </p>
        </>
      ) : null}
      {orders.data?.length ? (
        <div>
          <h3 className="mb-2 text-sm font-semibold text-ink">Credit orders</h3>
          <ul className="flex flex-col gap-2 text-sm" aria-label="Partners' credit orders">
            {orders.data.map((o) => (
              <li key={o.id} className="flex flex-wrap items-center justify-between gap-2 border-b border-line pb-2">
                <span>
                  {formatDateTime(o.created_at)} · {o.partner} · {o.credits} credits · {formatRand(o.amount)} · {o.reference}
                </span>
                <span className="flex items-center gap-2">
                  <span className="text-ink-muted">{ORDER_STATUS[o.status] ?? o.status}</span>
                  {o.status === "refused" || o.status === "unknown" ? (
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={retry.isPending}
                      onClick={() => retry.mutate(o.id, { onError: (error) => toast.error("Not sent", { description: error.message }) })}
                    >
                      Send again
                    </Button>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
