import { PageIntro } from "@/web/components/ui/page-intro";

/** /payment-history: a client's payments. */
export function PaymentHistoryPage() {
  return (
    <PageIntro
      eyebrow="Account"
      title="Payment history"
      description="Every payment on your account with its date, package, amount and status."
      links={[
        { to: "/client", label: "Client Portal" },
        { to: "/account-management", label: "Account management" },
      ]}
    />
  );
}
