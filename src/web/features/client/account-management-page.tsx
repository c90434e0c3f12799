import { PageIntro } from "@/web/components/ui/page-intro";

/** /account-management: a client's contact details, password and preferences. */
export function AccountManagementPage() {
  return (
    <PageIntro
      eyebrow="Account"
      title="Account management"
      description="Update your contact details, how we reach you (WhatsApp or e-mail) and your password."
      links={[
        { to: "/client", label: "Client Portal" },
        { to: "/payment-history", label: "Payment history" },
      ]}
    />
  );
}
