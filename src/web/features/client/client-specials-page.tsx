// /client/specials: the current specials and, for every package, what this client would pay
// today (special included). "Renew with this" opens the renew action with that package.
import { Sparkles } from "lucide-react";
import { Link } from "react-router";
import type { ClientPlan } from "@/shared/client-schemas";
import { formatRand } from "@/shared/money";
import { Badge } from "@/web/components/ui/badge";
import { buttonClasses } from "@/web/components/ui/button";
import { Card } from "@/web/components/ui/card";
import { PageSkeleton } from "@/web/components/ui/page-skeleton";
import { useClientSpecials } from "./api/get-specials";
import { LoadError } from "./components/load-error";
import { PortalPage } from "./components/portal-page";

export function ClientSpecialsPage() {
  return (
    <PortalPage title="Specials for clients" description="Current deals, and what each package costs you today." skeleton="card">
      {() => <SpecialsContent />}
    </PortalPage>
  );
}

function SpecialsContent() {
  const specials = useClientSpecials();
  if (specials.isPending) return <PageSkeleton variant="card" />;
  if (!specials.data) return <LoadError what="the specials" onRetry={() => specials.refetch()} />;
  const { specials: offers, plans } = specials.data;
  const withSpecial = plans.filter((p) => p.hasSpecial);
  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="offers-heading">
        <h2 id="offers-heading" className="mb-3 flex items-center gap-2 text-lg font-semibold text-ink">
          <Sparkles aria-hidden="true" className="size-5 text-special" />
          Current specials
        </h2>
        {offers.length === 0 ? (
          <p className="rounded-card border border-line bg-surface p-5 text-ink-muted">No Specials At The Moment. Check back soon.</p>
        ) : (
          <ul className="grid gap-4 sm:grid-cols-2">
            {offers.map((s) => (
              <li key={s.id} className="rounded-card border border-special/40 bg-special/10 p-5">
                <p className="font-semibold text-ink">{s.title || s.package_name}</p>
                {s.description ? <p className="mt-1 text-sm text-ink-muted">{s.description}</p> : null}
                <p className="mt-3 text-2xl font-bold text-special-ink tabular-nums">
                  {formatRand(s.special_price)} <s className="text-base font-normal text-ink-muted">{formatRand(s.original_price)}</s>
                </p>
                <p className="text-sm text-ink-muted">{s.package_name}</p>
              </li>
            ))}
          </ul>
        )}
        {offers.length > 0 && withSpecial.length === 0 ? (
          <p className="mt-3 text-sm text-ink-muted">These specials don't match a package on sale right now; contact us to claim one.</p>
        ) : null}
      </section>

      <section aria-labelledby="plans-heading">
        <h2 id="plans-heading" className="mb-3 text-lg font-semibold text-ink">
          What you would pay
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {plans.map((plan) => (
            <PlanCard key={plan.packageId} plan={plan} />
          ))}
        </ul>
        <p className="mt-3 text-sm text-ink-subtle">Prices in rand. Renewing adds the package's time to the end of your current term.</p>
      </section>
    </div>
  );
}

function PlanCard({ plan }: { plan: ClientPlan }) {
  const price = typeof plan.price === "number" ? plan.price : 0;
  return (
    <li>
      <Card className="flex h-full flex-col p-5">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-semibold text-ink">{plan.packageName}</h3>
          {plan.isCurrent ? <Badge variant="accent">Your package</Badge> : null}
          {plan.hasSpecial ? <Badge variant="special">Special</Badge> : null}
        </div>
        <p className="text-sm text-ink-muted">{plan.duration}</p>
        <p className="mt-3 text-3xl font-bold text-ink tabular-nums">
          {formatRand(price)}
          {plan.originalPrice ? <s className="ml-2 text-base font-normal text-ink-muted">{formatRand(plan.originalPrice)}</s> : null}
        </p>
        {plan.note ? <p className="text-sm font-semibold text-special">{plan.note}</p> : null}
        {plan.features.length ? (
          <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-ink-muted">
            {plan.features.slice(0, 4).map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        ) : null}
        <Link
          to={`/client?renew=1&package=${encodeURIComponent(plan.packageId)}`}
          className={buttonClasses({ variant: plan.hasSpecial ? "special" : "outline", className: "mt-auto w-full pt-0" })}
          style={{ marginTop: "1.25rem" }}
        >
          Renew with this
        </Link>
      </Card>
    </li>
  );
}
