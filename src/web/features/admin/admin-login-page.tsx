// /admin/login (spec §4, §8): e-mail and password. Success toasts 'Login Successful' and goes
// to /admin, or back to the page that sent the admin here; a refusal says why in the spec's
// words; a 429 passes on the server's own message (the form: components/sign-in-page.tsx).
import { LayoutDashboard } from "lucide-react";
import { adminLoginSchema } from "@/shared/schemas";
import { SignInField, SignInPage, useSignInForm } from "@/web/components/sign-in-page";
import { useBranding } from "@/web/lib/queries/branding";
import type { AdminLoginState } from "./admin-layout";
import { useAdminSession } from "./session/admin-session";

/** Only paths inside the dashboard are followed back (never another site, never the login page). */
export function returnPath(state: unknown): string {
  const from = (state as AdminLoginState | null)?.from;
  if (typeof from !== "string" || !/^\/admin(\/|\?|$)/.test(from) || from.startsWith("/admin/login")) return "/admin";
  return from;
}

export function AdminLoginPage() {
  const { session, signIn } = useAdminSession();
  const { branding } = useBranding();
  const { register, errors, state } = useSignInForm({
    schema: adminLoginSchema,
    defaultValues: { email: "", password: "" },
    session,
    signIn,
    returnPath,
    welcome: "Welcome back to the admin dashboard",
    invalid: "Invalid email or password",
  });

  return (
    <SignInPage
      state={state}
      icon={LayoutDashboard}
      title="Admin Login"
      intro={`Sign in to the ${branding.companyName ? `${branding.companyName} ` : ""}business dashboard.`}
      links={[
        { to: "/", label: "Back to the website" },
        { to: "/client/login", label: "Looking for the Client Portal?" },
      ]}
      className="min-h-dvh"
    >
      <SignInField
        id="admin-email"
        label="Email"
        error={errors.email?.message}
        type="email"
        autoComplete="username"
        inputMode="email"
        autoCapitalize="none"
        spellCheck={false}
        {...register("email")}
      />
      <SignInField
        id="admin-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register("password")}
      />
    </SignInPage>
  );
}
