// /client-password-reset: without a token, ask for a reset link by username or e-mail (the
// answer is the same whether or not an account matched); with ?token=… from the e-mailed link,
// choose a new password under the server's rules, then go and sign in.
import { zodResolver } from "@hookform/resolvers/zod";
import { CheckCircle2, KeyRound, MailCheck } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { z } from "zod";
import { INVALID_RESET_TOKEN_MESSAGE, type PasswordResetRequest, passwordResetRequestSchema } from "@/shared/client-schemas";
import { PASSWORD_MIN, passwordSchema } from "@/shared/schemas";
import { AuthPage } from "@/web/components/auth-page";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { ApiError } from "@/web/lib/api";
import { toast } from "@/web/lib/toast";
import { useConfirmPasswordReset } from "./api/confirm-password-reset";
import { useRequestPasswordReset } from "./api/request-password-reset";
import { Field } from "./components/field";
import { applyFieldErrors, errorMessage } from "./components/server-errors";

export function ClientPasswordResetPage() {
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  return (
    <AuthPage
      icon={KeyRound}
      className="sm:py-16"
      title={token ? "Choose a new password" : "Reset your password"}
      intro={
        token
          ? `Use at least ${PASSWORD_MIN} characters, mixing letters, numbers or symbols.`
          : "Enter your username or the e-mail address on your account and we'll send you a link to choose a new password."
      }
    >
      {token ? <NewPasswordForm token={token} /> : <RequestForm />}
      <nav aria-label="Elsewhere" className="mt-6 flex flex-col items-center gap-1 text-sm sm:flex-row sm:justify-center sm:gap-4">
        <Link to="/client/login" className="inline-flex min-h-11 items-center text-ink-muted hover:text-ink">
          Back to sign in
        </Link>
        <Link to="/support" className="inline-flex min-h-11 items-center text-ink-muted hover:text-ink">
          Contact support
        </Link>
      </nav>
    </AuthPage>
  );
}

const formCard = "flex flex-col gap-5 rounded-card border border-line bg-surface p-6 shadow-xl shadow-black/30 sm:p-8";

function RequestForm() {
  const request = useRequestPasswordReset();
  const [answer, setAnswer] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PasswordResetRequest>({ resolver: zodResolver(passwordResetRequestSchema), defaultValues: { identifier: "" } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await request.mutateAsync(values);
      setAnswer(result.message);
    } catch (error) {
      if (!applyFieldErrors(error, setError, ["identifier"])) toast.error("Reset Failed", { description: errorMessage(error) });
    }
  });

  if (answer) {
    return (
      <div role="status" className={formCard}>
        <MailCheck aria-hidden="true" className="size-8 text-ok" />
        <p className="font-semibold text-ink">{answer}</p>
        <p className="text-sm text-ink-muted">
          Check your e-mail (and WhatsApp, if we have your number). The link works once and expires in 30 minutes. Nothing arrived? Check
          your spam folder, or contact us and we'll help.
        </p>
        <Link to="/client/login" className={buttonClasses({ variant: "outline", className: "w-full" })}>
          Back to sign in
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className={formCard}>
      <Field id="reset-identifier" label="Username or e-mail address" error={errors.identifier?.message}>
        <Input autoComplete="username" autoCapitalize="none" spellCheck={false} {...register("identifier")} />
      </Field>
      <Button type="submit" size="lg" disabled={isSubmitting} className="w-full">
        {isSubmitting ? "Sending..." : "Send reset link"}
      </Button>
    </form>
  );
}

const newPasswordSchema = z
  .object({ password: passwordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "The two passwords do not match" });
type NewPassword = z.output<typeof newPasswordSchema>;

function NewPasswordForm({ token }: { token: string }) {
  const confirm = useConfirmPasswordReset();
  const navigate = useNavigate();
  const [deadLink, setDeadLink] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NewPassword>({ resolver: zodResolver(newPasswordSchema), defaultValues: { password: "", confirm: "" } });

  const onSubmit = handleSubmit(async (values) => {
    try {
      const result = await confirm.mutateAsync({ token, password: values.password });
      setDone(result.message);
      toast.success("Password Changed", { description: result.message });
      navigate("/client/login", { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === "invalid_token") {
        setDeadLink(true);
        return;
      }
      if (!applyFieldErrors(error, setError, ["password"])) toast.error("Reset Failed", { description: errorMessage(error) });
    }
  });

  if (deadLink) {
    return (
      <div role="alert" className={formCard}>
        <p className="font-semibold text-ink">{INVALID_RESET_TOKEN_MESSAGE}</p>
        <Link to="/client-password-reset" className={buttonClasses({ className: "w-full" })}>
          Ask for a new link
        </Link>
      </div>
    );
  }
  if (done) {
    return (
      <div role="status" className={formCard}>
        <CheckCircle2 aria-hidden="true" className="size-8 text-ok" />
        <p className="text-ink">{done}</p>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className={formCard}>
      <Field id="reset-password" label="New password" error={errors.password?.message}>
        <Input type="password" autoComplete="new-password" {...register("password")} />
      </Field>
      <Field id="reset-confirm" label="Repeat the new password" error={errors.confirm?.message}>
        <Input type="password" autoComplete="new-password" {...register("confirm")} />
      </Field>
      <Button type="submit" size="lg" disabled={isSubmitting} className="w-full">
        {isSubmitting ? "Saving..." : "Set new password"}
      </Button>
    </form>
  );
}
