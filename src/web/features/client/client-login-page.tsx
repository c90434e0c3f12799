// /client/login (spec §4, §8): username and password. Success clears what older versions kept
// in sessionStorage, toasts 'Login Successful' and goes to /client, or back to the portal page
// that sent the client here; a refusal says 'Invalid username or password'; a 429 passes on the
// server's own message; anything else is 'An unexpected error occurred during login'.
import { zodResolver } from "@hookform/resolvers/zod";
import { LogIn, UserRound } from "lucide-react";
import { useForm } from "react-hook-form";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import { toast } from "sonner";
import { INVALID_CREDENTIALS_MESSAGE } from "@/shared/client-schemas";
import { type ClientLogin, clientLoginSchema } from "@/shared/schemas";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { PageSkeleton } from "@/web/components/ui/page-skeleton";
import { ApiError } from "@/web/lib/api";
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

/** The toast for a refused or failed sign-in (spec §8). */
export function loginFailureToast(error: unknown): { title: string; description: string } {
  if (error instanceof ApiError && error.status === 401) return { title: "Login Failed", description: INVALID_CREDENTIALS_MESSAGE };
  if (error instanceof ApiError && error.status === 429) return { title: "Login Failed", description: error.message };
  return { title: "Login Error", description: "An unexpected error occurred during login" };
}

export function ClientLoginPage() {
  const { session, signIn } = useClientSession();
  const { branding } = useBranding();
  const location = useLocation();
  const navigate = useNavigate();
  const target = returnPath(location.state);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ClientLogin>({ resolver: zodResolver(clientLoginSchema), defaultValues: { username: "", password: "" } });

  if (session.status === "loading") return <PageSkeleton variant="form" />;
  if (session.status === "authenticated" && !isSubmitting) return <Navigate to={target} replace />;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await signIn(values);
      toast.success("Login Successful", { description: "Welcome to your client portal" });
      navigate(target, { replace: true });
    } catch (error) {
      const { title, description } = loginFailureToast(error);
      toast.error(title, { description });
    }
  });

  return (
    <div className="flex items-center justify-center px-4 py-10 sm:py-16">
      <div className="w-full max-w-md">
        <div className="mb-8 flex flex-col items-center gap-3 text-center">
          <span className="flex size-14 items-center justify-center rounded-2xl bg-accent/15 text-accent-ink">
            <UserRound aria-hidden="true" className="size-7" />
          </span>
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">Client Portal</h1>
          <p className="text-ink-muted">
            Sign in with the username and password we sent you
            {branding.companyName ? ` when you joined ${branding.companyName}` : ""}.
          </p>
        </div>
        <form
          onSubmit={onSubmit}
          noValidate
          className="flex flex-col gap-5 rounded-card border border-line bg-surface p-6 shadow-xl shadow-black/30 sm:p-8"
        >
          <div className="flex flex-col gap-2">
            <Label htmlFor="client-username">Username</Label>
            <Input
              id="client-username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              aria-invalid={errors.username ? true : undefined}
              aria-describedby={errors.username ? "client-username-error" : undefined}
              {...register("username")}
            />
            {errors.username ? (
              <p id="client-username-error" className="text-sm text-bad">
                {errors.username.message}
              </p>
            ) : null}
          </div>
          <div className="flex flex-col gap-2">
            <div className="flex items-center justify-between gap-3">
              <Label htmlFor="client-password">Password</Label>
              <Link
                to="/client-password-reset"
                className="inline-flex min-h-11 items-center text-sm font-medium text-accent-ink hover:underline"
              >
                Forgot password?
              </Link>
            </div>
            <Input
              id="client-password"
              type="password"
              autoComplete="current-password"
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? "client-password-error" : undefined}
              {...register("password")}
            />
            {errors.password ? (
              <p id="client-password-error" className="text-sm text-bad">
                {errors.password.message}
              </p>
            ) : null}
          </div>
          <Button type="submit" size="lg" disabled={isSubmitting} className="mt-1 w-full">
            <LogIn aria-hidden="true" />
            {isSubmitting ? "Signing in..." : "Sign In"}
          </Button>
        </form>
        <nav aria-label="Elsewhere" className="mt-6 flex flex-col items-center gap-1 text-sm sm:flex-row sm:justify-center sm:gap-4">
          <Link to="/support" className="inline-flex min-h-11 items-center text-ink-muted hover:text-ink">
            Need help? Contact support
          </Link>
          <Link to="/pricing" className="inline-flex min-h-11 items-center text-ink-muted hover:text-ink">
            Not a client yet? See packages
          </Link>
        </nav>
      </div>
    </div>
  );
}
