import { PageIntro } from "@/web/components/ui/page-intro";

/** /client/login: clients sign in with their username and password. */
export function ClientLoginPage() {
  return (
    <PageIntro
      eyebrow="Client Portal"
      title="Sign in to your client portal"
      description="Sign in with the username and password we sent you to see your subscription, line details, payments and client specials."
      links={[
        { to: "/client-password-reset", label: "Forgot your password?" },
        { to: "/support", label: "Contact support" },
      ]}
    />
  );
}
