// /partner/set-password?token=…: the link in a new partner's invite (issue 45). They choose their
// password under the shared rules, once; then they sign in at /partner.
import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useSearchParams } from "react-router";
import { z } from "zod";
import { INVALID_PARTNER_LINK_MESSAGE } from "@/shared/reseller-schemas";
import { PASSWORD_MIN, passwordSchema } from "@/shared/schemas";
import { AuthPage } from "@/web/components/auth-page";
import { FormField } from "@/web/components/form-field";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { ApiError } from "@/web/lib/api";
import { useSetPartnerPassword } from "./api/set-partner-password";

const schema = z
  .object({ password: passwordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "The two passwords do not match" });

const card = "flex flex-col gap-5 rounded-card border border-line bg-surface p-6 sm:p-8";

export function PartnerSetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token")?.trim() ?? "";
  const save = useSetPartnerPassword();
  const [outcome, setOutcome] = useState<{ ok: boolean; message: string } | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(schema), defaultValues: { password: "", confirm: "" } });
  const onSubmit = handleSubmit(async (values) => {
    try {
      const answer = await save.mutateAsync({ token, password: values.password });
      setOutcome({ ok: true, message: answer.message });
    } catch (error) {
      setOutcome({ ok: false, message: error instanceof ApiError ? error.message : "Not saved. Please try again." });
    }
  });
  return (
    <AuthPage
      icon={KeyRound}
      className="sm:py-16"
      title="Choose your partner password"
      intro={`Use at least ${PASSWORD_MIN} characters, mixing letters, numbers or symbols.`}
    >
      {!token ? (
        <p role="alert" className={card}>
          {INVALID_PARTNER_LINK_MESSAGE}
        </p>
      ) : outcome?.ok ? (
        <div role="status" className={card}>
          <p className="text-ink">{outcome.message}</p>
          <Link to="/partner" className={buttonClasses({ className: "w-full" })}>
            Sign in
          </Link>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className={card} aria-label="Choose your password">
          {outcome ? (
            <p role="alert" className="text-sm text-bad">
              {outcome.message}
            </p>
          ) : null}
          <FormField id="partner-new-password" label="New password" required error={errors.password?.message}>
            <Input id="partner-new-password" type="password" autoComplete="new-password" {...register("password")} />
          </FormField>
          <FormField id="partner-confirm-password" label="The same password again" required error={errors.confirm?.message}>
            <Input id="partner-confirm-password" type="password" autoComplete="new-password" {...register("confirm")} />
          </FormField>
          <Button type="submit" size="lg" disabled={isSubmitting}>
            {isSubmitting ? "Saving..." : "Save my password"}
          </Button>
        </form>
      )}
    </AuthPage>
  );
}
