import { PageIntro } from "@/web/components/ui/page-intro";

/** /client-password-reset: a client sets a new password from an e-mailed link. */
export function ClientPasswordResetPage() {
  return (
    <PageIntro
      eyebrow="Client Portal"
      title="Reset your password"
      description="Ask for a reset link on the e-mail address we have for you, then choose a new password of at least 10 characters."
      links={[
        { to: "/client/login", label: "Back to sign in" },
        { to: "/support", label: "Contact support" },
      ]}
    />
  );
}
