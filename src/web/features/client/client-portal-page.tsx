import { PageIntro } from "@/web/components/ui/page-intro";

/** /client: the signed-in client's home. */
export function ClientPortalPage() {
  return (
    <PageIntro
      eyebrow="Client Portal"
      title="Your subscription"
      description="Your package, when it renews, your streaming line details and any notices from us."
      links={[
        { to: "/client/specials", label: "Client specials" },
        { to: "/payment-history", label: "Payment history" },
        { to: "/account-management", label: "Account management" },
      ]}
    />
  );
}
