// /admin: the day's numbers at a glance (each tile opens the list it counts), the IPTV panel
// (credits, failed jobs, tasks; an alert when it ran out of credits) and the last 30 days of
// leads and revenue. The first tile is the WhatsApp inbox's unread count (issue 26); the last, the
// free trials' 7-day conversion rate (issue 27).
import {
  AlertTriangle,
  CalendarClock,
  CalendarDays,
  Hourglass,
  Inbox,
  Landmark,
  MailWarning,
  MessagesSquare,
  TrendingUp,
  Undo2,
  Users,
} from "lucide-react";
import type { ComponentType } from "react";
import { Link } from "react-router";
import type { AdminStats } from "@/shared/business-schemas";
import { saDay } from "@/shared/dates";
import { formatRand } from "@/shared/money";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { AdminPageHeader } from "../components/admin-page-header";
import { OutOfCreditsAlert } from "../panel/out-of-credits-alert";
import { PaymentModeBanner } from "../payments/payment-mode-banner";
import { useAdminStats } from "./api/get-stats";
import { BarChart } from "./bar-chart";
import { InboxTile } from "./inbox-tile";
import { LaunchChecklist } from "./launch-checklist";
import { PanelSummary } from "./panel-summary";
import { TrialConversionTile } from "./trial-conversion-tile";

interface Tile {
  label: string;
  value: (stats: AdminStats) => string;
  to: string;
  icon: ComponentType<{ className?: string; "aria-hidden"?: boolean }>;
  /** draws the eye when the count is not zero (work waiting) */
  attention?: (stats: AdminStats) => boolean;
  /** shown only while this holds (a rare state with nothing to see otherwise) */
  shown?: (stats: AdminStats) => boolean;
}

/** The South African day six days before today: with today, the week the server counts. */
function weekStart(now: Date): string {
  const todayNoon = new Date(`${saDay(now)}T12:00:00+02:00`);
  return saDay(new Date(todayNoon.getTime() - 6 * 86_400_000));
}

function tiles(now: Date): Tile[] {
  const count = (n: number) => n.toLocaleString("en-US");
  return [
    { label: "Leads today", value: (s) => count(s.leads_today), to: `/admin/leads?from=${saDay(now)}`, icon: Inbox },
    { label: "Leads this week", value: (s) => count(s.leads_week), to: `/admin/leads?from=${weekStart(now)}`, icon: CalendarDays },
    { label: "Active clients", value: (s) => count(s.active_clients), to: "/admin/clients?status=active", icon: Users },
    { label: "Live trials", value: (s) => count(s.live_trials), to: "/admin/clients?status=trial", icon: Hourglass },
    {
      label: "Expiring in 7 days",
      value: (s) => count(s.expiring_7d),
      // Soonest end first: who to chase for a renewal today.
      to: "/admin/clients?expiring=7&sort=subscription_end&dir=asc",
      icon: CalendarClock,
      attention: (s) => s.expiring_7d > 0,
    },
    { label: "Revenue this month", value: (s) => formatRand(s.revenue_month), to: "/admin/payments?status=paid", icon: TrendingUp },
    {
      label: "EFT awaiting confirmation",
      value: (s) => count(s.eft_awaiting),
      to: "/admin/payments?status=pending&provider=eft",
      icon: Landmark,
      attention: (s) => s.eft_awaiting > 0,
    },
    {
      label: "Outbox failures",
      value: (s) => count(s.outbox_failed),
      to: "/admin/outbox?status=failed",
      icon: MailWarning,
      attention: (s) => s.outbox_failed > 0,
    },
    {
      label: "To send on WhatsApp",
      value: (s) => count(s.whatsapp_to_send),
      to: "/admin/outbox?status=owner",
      icon: MessagesSquare,
      attention: (s) => s.whatsapp_to_send > 0,
    },
    {
      label: "Refunds held",
      value: (s) => count(s.refunds_held),
      // a provider lost its answer: refunding again on the payment checks with the provider
      to: "/admin/payments?refund=held",
      icon: Undo2,
      attention: (s) => s.refunds_held > 0,
      shown: (s) => s.refunds_held > 0,
    },
  ];
}

export function OverviewSection() {
  const { data: stats, isPending, error, refetch, isRefetching } = useAdminStats();
  return (
    <>
      <AdminPageHeader title="Overview" description="Today's leads, clients and money at a glance. Each tile opens the list behind it." />
      <PaymentModeBanner quietWhenLive className="mb-4" />
      <OutOfCreditsAlert linkToPanel className="mb-4" />
      <LaunchChecklist className="mb-4" />
      {isPending ? (
        <OverviewSkeleton />
      ) : error || !stats ? (
        <div role="alert" className="flex flex-col items-center gap-3 rounded-card border border-bad/40 bg-bad/5 px-6 py-12 text-center">
          <AlertTriangle aria-hidden="true" className="size-8 text-bad" />
          <p className="font-medium text-ink">The overview couldn't load.</p>
          <p className="text-sm text-ink-muted">{error?.message}</p>
          <Button variant="outline" size="sm" onClick={() => refetch()} disabled={isRefetching}>
            Try Again
          </Button>
        </div>
      ) : (
        <div className="flex flex-col gap-6">
          <ul className="grid grid-cols-1 gap-3 min-[22rem]:grid-cols-2 sm:gap-4 xl:grid-cols-4">
            <li>
              <InboxTile />
            </li>
            {tiles(new Date())
              .filter((tile) => tile.shown?.(stats) ?? true)
              .map((tile) => {
                const Icon = tile.icon;
                const attention = tile.attention?.(stats) ?? false;
                return (
                  <li key={tile.label}>
                    <Link
                      to={tile.to}
                      className={cn(
                        "flex h-full flex-col gap-3 rounded-card border bg-surface p-4 transition-colors hover:border-line-strong hover:bg-surface-raised sm:p-5",
                        attention ? "border-special/50" : "border-line",
                      )}
                    >
                      <span className="flex items-start justify-between gap-2 text-sm text-ink-muted">
                        {tile.label}
                        <Icon aria-hidden={true} className={cn("size-5 shrink-0", attention ? "text-special" : "text-ink-subtle")} />
                      </span>
                      <span className="mt-auto text-2xl font-bold text-ink tabular sm:text-3xl">{tile.value(stats)}</span>
                    </Link>
                  </li>
                );
              })}
            <li>
              <TrialConversionTile />
            </li>
          </ul>
          <PanelSummary />
          <div className="grid gap-4 lg:grid-cols-2">
            <BarChart
              title="Leads per day (30 days)"
              series={stats.leads_per_day.map((d) => ({ date: d.date, value: d.count }))}
              format={(n) => n.toLocaleString("en-US")}
              emptyText="No leads in the last 30 days."
            />
            <BarChart
              title="Revenue per day (30 days)"
              series={stats.revenue_per_day.map((d) => ({ date: d.date, value: d.amount }))}
              format={formatRand}
              emptyText="No payments received in the last 30 days."
              barClassName="fill-special"
            />
          </div>
        </div>
      )}
    </>
  );
}

/** Spec §2: the dashboard placeholder shows 6 blocks. */
function OverviewSkeleton() {
  return (
    <div role="status" aria-live="polite" aria-busy="true" data-skeleton="dashboard" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      <span className="sr-only">Loading...</span>
      {[0, 1, 2, 3, 4, 5].map((i) => (
        <div key={i} className="rounded-card border border-line bg-surface p-5" data-skeleton-block>
          <Skeleton className="mb-3 h-4 w-1/3" />
          <Skeleton className="mb-4 h-8 w-1/2" />
          <Skeleton className="h-16 w-full" />
        </div>
      ))}
    </div>
  );
}
