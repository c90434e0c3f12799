// /client: the signed-in client's home. Subscription status and days left, the streaming line,
// renewing, the player apps, notices and content requests. A client who has not paid yet
// (pending) or whose term expired sees a restricted portal whose main action is paying; one in
// grace sees how long they have left to renew. (A suspended client sees only the suspended
// page: portal-page.tsx.) /client?renew=1 (the reminders' link) brings the renew action into
// view; &package=<id> picks a package for it.
import { AlertOctagon, Clock, MessageCircle } from "lucide-react";
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import type { ClientProfile } from "@/shared/client-schemas";
import { formatDate } from "@/shared/dates";
import { graceEnd, lifecycleRules } from "@/shared/lifecycle";
import { buildWhatsAppLink } from "@/shared/whatsapp";
import { buttonClasses } from "@/web/components/ui/button";
import { PageSkeleton } from "@/web/components/ui/page-skeleton";
import { cn } from "@/web/lib/cn";
import { useBranding } from "@/web/lib/queries/branding";
import { useSettings } from "@/web/lib/queries/settings";
import { scrollBehavior } from "@/web/lib/scroll";
import { useMe } from "./api/get-me";
import { AppsSection } from "./components/apps-section";
import { AutoRenewCard } from "./components/auto-renew-card";
import { ContentRequestsSection } from "./components/content-requests-section";
import { HelpSection } from "./components/help-section";
import { LineDetails, LinePending } from "./components/line-details";
import { LoadError } from "./components/load-error";
import { NoticesSection } from "./components/notices-section";
import { PortalPage } from "./components/portal-page";
import { RenewPanel } from "./components/renew-panel";
import { isRestricted } from "./components/subscription-status";
import { SubscriptionSummary } from "./components/subscription-summary";

export function ClientPortalPage() {
  return (
    <PortalPage title="Your portal" skeleton="dashboard">
      {() => <PortalHome />}
    </PortalPage>
  );
}

function PortalHome() {
  const me = useMe();
  // The grace days and the like (defaults until the settings arrive).
  const rules = lifecycleRules(useSettings().settings);
  const [params] = useSearchParams();
  const wantsRenew = params.get("renew") === "1";
  const preferredPackageId = params.get("package") ?? undefined;
  const ready = Boolean(me.data);

  // The reminders' link: bring the renew action into view once the page is drawn.
  useEffect(() => {
    if (!wantsRenew || !ready) return;
    const frame = requestAnimationFrame(() => {
      const target = document.getElementById("renew");
      target?.scrollIntoView({ block: "start", behavior: scrollBehavior() });
      target?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [wantsRenew, ready]);

  if (me.isPending) return <PageSkeleton variant="dashboard" />;
  if (!me.data) return <LoadError what="your subscription" onRetry={() => me.refetch()} />;
  const profile = me.data;
  const { status, end } = profile.subscription;
  // A paid term that ended keeps working for the grace days; then the service stops.
  const graceUntil = status === "grace" && end ? graceEnd(new Date(end), rules) : null;
  const renew = <RenewPanel profile={profile} preferredPackageId={preferredPackageId} emphasis={wantsRenew || status === "grace"} />;
  const summary = <SubscriptionSummary subscription={profile.subscription} graceUntil={graceUntil} />;

  if (isRestricted(status)) {
    return (
      <div className="flex flex-col gap-5" data-portal="restricted">
        <StatusNotice profile={profile} />
        <div className="grid gap-5 lg:grid-cols-2 lg:items-start">
          {renew}
          <div className="flex flex-col gap-5">
            {summary}
            <NoticesSection />
            <HelpSection device={profile.device} deviceLabel={profile.device_label} />
          </div>
        </div>
      </div>
    );
  }

  // Asked for from a reminder's link: the Renew panel comes first, so it is what a phone shows
  // when the page opens (lower down, the sections above it loading would push it out of view).
  return (
    <div className="flex flex-col gap-5" data-portal="full">
      {graceUntil ? <StatusNotice profile={profile} graceUntil={graceUntil} /> : null}
      {wantsRenew ? renew : null}
      <div className="grid gap-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="flex min-w-0 flex-col gap-5">
          {summary}
          {profile.line ? (
            <LineDetails line={profile.line} />
          ) : profile.status === "active" || profile.status === "trial" ? (
            <LinePending />
          ) : null}
          {/* A MAG box or Enigma2 receiver is set up by its own screen (the line card says how): no login apps for it. */}
          {profile.line?.type === "mag" || profile.line?.type === "enigma2" ? null : <AppsSection deviceLabel={profile.device_label} />}
        </div>
        <div className="flex min-w-0 flex-col gap-5">
          <NoticesSection />
          {wantsRenew ? null : renew}
          <AutoRenewCard />
          <HelpSection device={profile.device} deviceLabel={profile.device_label} />
          <ContentRequestsSection />
        </div>
      </div>
    </div>
  );
}

/** What the client must do now: pay for the first time, renew in grace, or renew after the end. */
function statusNotice(profile: ClientProfile, graceUntil: Date | null): { title: string; text: string; tone: "warn" | "bad" } {
  const what = profile.subscription.package || "subscription";
  const ended = formatDate(profile.subscription.end);
  switch (profile.subscription.status) {
    case "pending":
      return {
        title: "Waiting for your first payment",
        text: `Your account is ready. Pay for your ${what} below: your subscription starts as soon as your payment is confirmed, and your streaming line details appear here.`,
        tone: "warn",
      };
    case "grace":
      return {
        title: "Your subscription has ended",
        text: `Your ${what} ended${ended ? ` on ${ended}` : ""}. You have until ${formatDate(graceUntil) || "the end of the grace period"} to renew before the service stops. Renew now and no day is lost: your new term carries on from the day your last one ended.`,
        tone: "warn",
      };
    default:
      return {
        title: "Your subscription has ended",
        text: `Your ${what} ended${ended ? ` on ${ended}` : ""}, so your line is paused. Renew below to start watching again: your line switches back on as soon as your payment is confirmed, with the same login details.`,
        tone: "bad",
      };
  }
}

function StatusNotice({ profile, graceUntil = null }: { profile: ClientProfile; graceUntil?: Date | null }) {
  const { branding } = useBranding();
  const { title, text, tone } = statusNotice(profile, graceUntil);
  const Icon = tone === "bad" ? AlertOctagon : Clock;
  return (
    <div
      role={tone === "bad" ? "alert" : "status"}
      data-testid="status-notice"
      className={cn(
        "flex flex-col gap-3 rounded-card border p-5 sm:flex-row sm:items-start sm:p-6",
        tone === "bad" ? "border-bad/40 bg-bad/10" : "border-warn/40 bg-warn/10",
      )}
    >
      <Icon aria-hidden="true" className={cn("size-7 shrink-0", tone === "bad" ? "text-bad" : "text-warn")} />
      <div className="flex min-w-0 flex-col gap-2">
        <h2 className="text-lg font-bold text-ink">{title}</h2>
        <p className="text-ink-muted">{text}</p>
        {branding.whatsappNumber ? (
          <a
            href={buildWhatsAppLink(branding.whatsappNumber, `Hi, I need help with my account (username: ${profile.username}).`)}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClasses({ variant: "outline", size: "sm", className: "self-start" })}
          >
            <MessageCircle aria-hidden="true" />
            Chat to us on WhatsApp
          </a>
        ) : null}
      </div>
    </div>
  );
}
