// The sign-in pages of the dashboard and the client portal (spec §4, §8) work and look the same:
// a form over the shared login schema; success toasts 'Login Successful' and goes to the page
// asked for; a refusal says why in the spec's words, a 429 passes on the server's own message,
// anything else is 'An unexpected error occurred during login'. Around it an icon, a title and a
// line, the card with the fields and 'Sign In', and links elsewhere. Each page passes what
// differs: its schema, session, words, fields and links.
import { zodResolver } from "@hookform/resolvers/zod";
import type { LucideIcon } from "lucide-react";
import { LogIn } from "lucide-react";
import type { FormEventHandler, ReactNode } from "react";
import { type DefaultValues, type FieldValues, useForm } from "react-hook-form";
import { Link, Navigate, useLocation, useNavigate } from "react-router";
import type { z } from "zod";
import { AuthPage } from "@/web/components/auth-page";
import { FieldError, fieldAria } from "@/web/components/form-field";
import { Button } from "@/web/components/ui/button";
import { Input, type InputProps } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { PageSkeleton } from "@/web/components/ui/page-skeleton";
import { ApiError } from "@/web/lib/api";
import { toast } from "@/web/lib/toast";

/** The toast for a refused or failed sign-in (spec §8); `invalid` is what a 401 says. */
export function loginFailureToast(error: unknown, invalid: string): { title: string; description: string } {
  if (error instanceof ApiError && error.status === 401) return { title: "Login Failed", description: invalid };
  if (error instanceof ApiError && error.status === 429) return { title: "Login Failed", description: error.message };
  return { title: "Login Error", description: "An unexpected error occurred during login" };
}

export interface SignInOptions<T extends FieldValues> {
  schema: z.ZodType<T, T>;
  defaultValues: DefaultValues<T>;
  /** the session's state: a skeleton while it loads; signed in already, straight on */
  session: { status: string };
  signIn: (values: T) => Promise<unknown>;
  /** where to go once signed in, from the location's state (the page that sent the visitor here) */
  returnPath: (state: unknown) => string;
  /** the success toast's line */
  welcome: string;
  /** what a 401 says */
  invalid: string;
}

/** What SignInPage needs of the form: where it goes, how it submits, whether it is busy. */
export interface SignInState {
  sessionStatus: string;
  target: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  isSubmitting: boolean;
}

/** The sign-in form: react-hook-form over the shared schema, submitting to the session's signIn. */
export function useSignInForm<T extends FieldValues>({
  schema,
  defaultValues,
  session,
  signIn,
  returnPath,
  welcome,
  invalid,
}: SignInOptions<T>) {
  const target = returnPath(useLocation().state);
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<T>({ resolver: zodResolver(schema), defaultValues });
  const onSubmit = handleSubmit(async (values) => {
    try {
      await signIn(values);
      toast.success("Login Successful", { description: welcome });
      navigate(target, { replace: true });
    } catch (error) {
      const { title, description } = loginFailureToast(error, invalid);
      toast.error(title, { description });
    }
  });
  const state: SignInState = { sessionStatus: session.status, target, onSubmit, isSubmitting };
  return { register, errors, state };
}

export interface SignInPageProps {
  /** from useSignInForm */
  state: SignInState;
  icon: LucideIcon;
  title: string;
  intro: ReactNode;
  /** the links under the card, in the 'Elsewhere' navigation */
  links: { to: string; label: string }[];
  /** the page's own spacing (the dashboard's login fills the screen; the portal's sits in its layout) */
  className?: string;
  /** the fields */
  children: ReactNode;
}

export function SignInPage({ state, icon: Icon, title, intro, links, className, children }: SignInPageProps) {
  const { sessionStatus, target, onSubmit, isSubmitting } = state;
  if (sessionStatus === "loading") return <PageSkeleton variant="form" />;
  if (sessionStatus === "authenticated" && !isSubmitting) return <Navigate to={target} replace />;
  return (
    <AuthPage icon={Icon} title={title} intro={intro} className={className}>
      <form
        onSubmit={onSubmit}
        noValidate
        className="flex flex-col gap-5 rounded-card border border-line bg-surface p-6 shadow-xl shadow-black/30 sm:p-8"
      >
        {children}
        <Button type="submit" size="lg" disabled={isSubmitting} className="mt-1 w-full">
          <LogIn aria-hidden="true" />
          {isSubmitting ? "Signing in..." : "Sign In"}
        </Button>
      </form>
      <nav aria-label="Elsewhere" className="mt-6 flex flex-col items-center gap-1 text-sm sm:flex-row sm:justify-center sm:gap-4">
        {links.map((link) => (
          <Link key={link.to} to={link.to} className="inline-flex min-h-11 items-center text-ink-muted hover:text-ink">
            {link.label}
          </Link>
        ))}
      </nav>
    </AuthPage>
  );
}

export interface SignInFieldProps extends InputProps {
  id: string;
  label: string;
  error?: string;
  /** shown at the end of the label's line (the portal's 'Forgot password?') */
  labelAside?: ReactNode;
}

/** One labelled input of a sign-in form, its error under it and tied to it. */
export function SignInField({ id, label, error, labelAside, ...input }: SignInFieldProps) {
  const labelElement = <Label htmlFor={id}>{label}</Label>;
  return (
    <div className="flex flex-col gap-2">
      {labelAside ? (
        <div className="flex items-center justify-between gap-3">
          {labelElement}
          {labelAside}
        </div>
      ) : (
        labelElement
      )}
      <Input id={id} {...fieldAria(id, { error })} {...input} />
      <FieldError id={id} error={error} />
    </div>
  );
}
