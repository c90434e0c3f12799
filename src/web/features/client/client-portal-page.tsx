// /client: the signed-in client's home. Subscription status and days left, the streaming line,
// renewing, the player apps, notices and content requests. An expired or suspended client sees
// a restricted portal whose main action is renewing. /client?renew=1 (the reminders' link)
// brings the renew action into view; &package=<id> picks a package for it.
import { AlertOctagon, MessageCircle } from "lucide-react";
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { type ClientProfile, SUSPENDED_MESSAGE } from "@/shared/client-schemas";
import { formatDate } from "@/shared/dates";
import { buildWhatsAppLink } from "@/shared/whatsapp";
import { buttonClasses } from "@/web/components/ui/button";
import { PageSkeleton } from "@/web/components/ui/page-skeleton";
import { useBranding } from "@/web/lib/queries/branding";
import { useMe } from "./api/get-me";
import { AppsSection } from "./components/apps-section";
import { ContentRequestsSection } from "./components/content-requests-section";
import { HelpSection } from "./components/help-section";
import { LineDetails } from "./components/line-details";
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
  const [params] = useSearchParams();
  const wantsRenew = params.get("renew") === "1";
  const preferredPackageId = params.get("package") ?? undefined;
  const ready = Boolean(me.data);

  // The reminders' link: bring the renew action into view once the page is drawn.
  useEffect(() => {
    if (!wantsRenew || !ready) return;
    const frame = requestAnimationFrame(() => {
      const target = document.getElementById("renew");
      target?.scrollIntoView({ block: "start", behavior: "smooth" });
      target?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [wantsRenew, ready]);

  if (me.isPending) return <PageSkeleton variant="dashboard" />;
  if (!me.data) return <LoadError what="your subscription" onRetry={() => me.refetch()} />;
  const profile = me.data;
  const renew = <RenewPanel profile={profile} preferredPackageId={preferredPackageId} emphasis={wantsRenew} />;

  if (isRestricted(profile.subscription.status)) {
    return (
      <div className="flex flex-col gap-5" data-portal="restricted">
        <RestrictedNotice profile={profile} />
        <div className="grid gap-5 lg:grid-cols-2">
          {renew}
          <div className="flex flex-col gap-5">
            <SubscriptionSummary subscription={profile.subscription} />
            <NoticesSection />
            <HelpSection device={profile.device} deviceLabel={profile.device_label} />
          </div>
        </div>
      </div>
    );
  }

  return (
    <div className="grid gap-5 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]" data-portal="full">
      <div className="flex min-w-0 flex-col gap-5">
        <SubscriptionSummary subscription={profile.subscription} />
        {profile.line ? <LineDetails line={profile.line} /> : null}
        <AppsSection deviceLabel={profile.device_label} />
      </div>
      <div className="flex min-w-0 flex-col gap-5">
        <NoticesSection />
        {renew}
        <HelpSection device={profile.device} deviceLabel={profile.device_label} />
        <ContentRequestsSection />
      </div>
    </div>
  );
}

function RestrictedNotice({ profile }: { profile: ClientProfile }) {
  const { branding } = useBranding();
  const suspended = profile.subscription.status === "suspended";
  const ended = formatDate(profile.subscription.end);
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-card border border-bad/40 bg-bad/10 p-5 sm:flex-row sm:items-start sm:p-6">
      <AlertOctagon aria-hidden="true" className="size-7 shrink-0 text-bad" />
      <div className="flex min-w-0 flex-col gap-2">
        <h2 className="text-lg font-bold text-ink">{suspended ? "Your account is suspended" : "Your subscription has ended"}</h2>
        <p className="text-ink-muted">
          {suspended
            ? SUSPENDED_MESSAGE
            : `Your ${profile.subscription.package || "subscription"} ended${ended ? ` on ${ended}` : ""}, so your line is paused. Renew below to start watching again: your line switches back on as soon as your payment is confirmed, with the same login details.`}
        </p>
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
