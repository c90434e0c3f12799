// /admin/login (spec §4, §8): e-mail and password. Success toasts 'Login Successful' and goes
// to /admin, or back to the page that sent the admin here; a refusal says why in the spec's
// words; a 429 passes on the server's own message.
import { zodResolver } from "@hookform/resolvers/zod";
import { LayoutDashboard, LogIn } from "lucide-react";
import { useForm } from "react-hook-form";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import { toast } from "sonner";
import { type AdminLogin, adminLoginSchema } from "@/shared/schemas";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { PageSkeleton } from "@/web/components/ui/page-skeleton";
import { ApiError } from "@/web/lib/api";
import { useBranding } from "@/web/lib/queries/branding";
import type { AdminLoginState } from "./admin-layout";
import { useAdminSession } from "./session/admin-session";

/** Only paths inside the dashboard are followed back (never another site, never the login page). */
export function returnPath(state: unknown): string {
  const from = (state as AdminLoginState | null)?.from;
  if (typeof from !== "string" || !/^\/admin(\/|\?|$)/.test(from) || from.startsWith("/admin/login")) return "/admin";
  return from;
}

/** The toast for a refused or failed sign-in (spec §8). */
export function loginFailureToast(error: unknown): { title: string; description: string } {
  if (error instanceof ApiError && error.status === 401) return { title: "Login Failed", description: "Invalid email or password" };
  if (error instanceof ApiError && error.status === 429) return { title: "Login Failed", description: error.message };
  return { title: "Login Error", description: "An unexpected error occurred during login" };
}

export function AdminLoginPage() {
  const { session, signIn } = useAdminSession();
  const { branding } = useBranding();
  const location = useLocation();
  const navigate = useNavigate();
  const target = returnPath(location.state);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AdminLogin>({ resolver: zodResolver(adminLoginSchema), defaultValues: { email: "", password: "" } });

  if (session.status === "loading") return <PageSkeleton variant="form" />;
  if (session.status === "authenticated" && !isSubmitting) return <Navigate to={target} replace />;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await signIn(values);
      toast.success("Login Successful", { description: "Welcome back to the admin dashboard" });
      navigate(target, { replace: true });
    } catch (error) {
      const { title, description } = loginFailureToast(error);
      toast.error(title, { description });
    }
  });

  return (
    <div className="flex min-h-dvh items-center justify-center px-4 py-10">
      <div className="w-full max-w-md">
        <div className="mb-8 flex flex-col items-center gap-3 text-center">
          <span className="flex size-14 items-center justify-center rounded-2xl bg-accent/15 text-accent-ink">
            <LayoutDashboard aria-hidden="true" className="size-7" />
          </span>
          <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">Admin Login</h1>
          <p className="text-ink-muted">Sign in to the {branding.companyName ? `${branding.companyName} ` : ""}business dashboard.</p>
        </div>
        <form
          onSubmit={onSubmit}
          noValidate
          className="flex flex-col gap-5 rounded-card border border-line bg-surface p-6 shadow-xl shadow-black/30 sm:p-8"
        >
          <div className="flex flex-col gap-2">
            <Label htmlFor="admin-email">Email</Label>
            <Input
              id="admin-email"
              type="email"
              autoComplete="username"
              inputMode="email"
              autoCapitalize="none"
              spellCheck={false}
              aria-invalid={errors.email ? true : undefined}
              aria-describedby={errors.email ? "admin-email-error" : undefined}
              {...register("email")}
            />
            {errors.email ? (
              <p id="admin-email-error" className="text-sm text-bad">
                {errors.email.message}
              </p>
            ) : null}
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="admin-password">Password</Label>
            <Input
              id="admin-password"
              type="password"
              autoComplete="current-password"
              aria-invalid={errors.password ? true : undefined}
              aria-describedby={errors.password ? "admin-password-error" : undefined}
              {...register("password")}
            />
            {errors.password ? (
              <p id="admin-password-error" className="text-sm text-bad">
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
          <Link to="/" className="inline-flex min-h-11 items-center text-ink-muted hover:text-ink">
            Back to the website
          </Link>
          <Link to="/client/login" className="inline-flex min-h-11 items-center text-ink-muted hover:text-ink">
            Looking for the Client Portal?
          </Link>
        </nav>
      </div>
    </div>
  );
}
