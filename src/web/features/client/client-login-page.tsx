// /client/login (spec §4, §8): username and password. Success clears what older versions kept
// in sessionStorage, toasts 'Login Successful' and goes to /client, or back to the portal page
// that sent the client here; a refusal says 'Invalid username or password'; a 429 passes on the
// server's own message; anything else is 'An unexpected error occurred during login' (the form:
// components/sign-in-page.tsx).
import { UserRound } from "lucide-react";
import { Link } from "react-router";
import { INVALID_CREDENTIALS_MESSAGE } from "@/shared/client-schemas";
import { clientLoginSchema } from "@/shared/schemas";
import { SignInField, SignInPage, useSignInForm } from "@/web/components/sign-in-page";
import { useBranding } from "@/web/lib/queries/branding";
import type { ClientLoginState } from "./components/client-guard";
import { useClientSession } from "./session/client-session";

const PORTAL_PATH = /^\/(client(\/|\?|$)|account-management(\?|$)|payment-history(\?|$))/;

/** Only portal paths are followed back (never another site, never the login page itself). */
export function returnPath(state: unknown): string {
  const from = (state as ClientLoginState | null)?.from;
  if (typeof from !== "string" || !PORTAL_PATH.test(from) || from.startsWith("/client/login")) return "/client";
  return from;
}

export function ClientLoginPage() {
  const { session, signIn } = useClientSession();
  const { branding } = useBranding();
  const { register, errors, state } = useSignInForm({
    schema: clientLoginSchema,
    defaultValues: { username: "", password: "" },
    session,
    signIn,
    returnPath,
    welcome: "Welcome to your client portal",
    invalid: INVALID_CREDENTIALS_MESSAGE,
  });

  return (
    <SignInPage
      state={state}
      icon={UserRound}
      title="Client Portal"
      intro={
        <>
          Sign in with the username and password we sent you
          {branding.companyName ? ` when you joined ${branding.companyName}` : ""}.
        </>
      }
      links={[
        { to: "/support", label: "Need help? Contact support" },
        { to: "/pricing", label: "Not a client yet? See packages" },
      ]}
      className="sm:py-16"
    >
      <SignInField
        id="client-username"
        label="Username"
        error={errors.username?.message}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        {...register("username")}
      />
      <SignInField
        id="client-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register("password")}
        labelAside={
          <Link
            to="/client-password-reset"
            className="inline-flex min-h-11 items-center text-sm font-medium text-accent-ink hover:underline"
          >
            Forgot password?
          </Link>
        }
      />
    </SignInPage>
  );
}
