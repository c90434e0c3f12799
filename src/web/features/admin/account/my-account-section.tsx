// /admin/account: who is signed in, and changing their password (the current one first; the
// new one follows the same rules as everywhere). Other devices are signed out afterwards.
// react-hook-form over the shared passwordChangeFormSchema.
import { zodResolver } from "@hookform/resolvers/zod";
import { KeyRound } from "lucide-react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { passwordChangeFormSchema } from "@/shared/admin-schemas";
import { PASSWORD_MIN } from "@/shared/schemas";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { ApiError } from "@/web/lib/api";
import { toast } from "@/web/lib/toast";
import { AdminPageHeader } from "../components/admin-page-header";
import { Field, FormError, setServerErrors } from "../components/form-field";
import { useAdminSession } from "../session/admin-session";
import { useChangePassword } from "./api/change-password";

const EMPTY = { currentPassword: "", newPassword: "", confirmPassword: "" };

type PasswordChangeForm = z.output<typeof passwordChangeFormSchema>;
const FIELDS = ["currentPassword", "newPassword", "confirmPassword"] as const;

export function MyAccountSection() {
  const { session } = useAdminSession();
  const change = useChangePassword();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<PasswordChangeForm>({ resolver: zodResolver(passwordChangeFormSchema), defaultValues: EMPTY });

  const submit = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await change.mutateAsync({ currentPassword, newPassword });
      reset(EMPTY);
      toast.success("Password changed", { description: "Use it next time you sign in. Your other devices were signed out." });
    } catch (error) {
      if (!setServerErrors(error, setError, FIELDS) && error instanceof ApiError && error.status === 429) {
        setError("root.server", { type: "server", message: error.message });
      }
      toast.error("Password not changed", { description: error instanceof Error ? error.message : "Please try again." });
    }
  });

  const admin = session.admin;
  return (
    <>
      <AdminPageHeader title="My account" description="Your sign-in details for the business dashboard." />
      <div className="grid max-w-3xl gap-6">
        {admin ? (
          <section aria-labelledby="account-who" className="rounded-card border border-line bg-surface p-5">
            <h2 id="account-who" className="sr-only">
              Signed in as
            </h2>
            <dl className="grid grid-cols-[minmax(5rem,auto)_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="text-ink-subtle">Name</dt>
              <dd className="text-ink">{admin.name || "—"}</dd>
              <dt className="text-ink-subtle">Email</dt>
              <dd className="break-all text-ink">{admin.email}</dd>
            </dl>
          </section>
        ) : null}
        <form
          onSubmit={submit}
          noValidate
          className="flex flex-col gap-4 rounded-card border border-line bg-surface p-5"
          aria-labelledby="account-password"
        >
          <h2 id="account-password" className="flex items-center gap-2 text-lg font-bold text-ink">
            <KeyRound aria-hidden="true" className="size-5 text-ink-subtle" />
            Change password
          </h2>
          <FormError message={errors.root?.server?.message} />
          <Field label="Current password" required error={errors.currentPassword?.message}>
            {(control) => <Input {...control} {...register("currentPassword")} type="password" autoComplete="current-password" />}
          </Field>
          <Field
            label="New password"
            required
            error={errors.newPassword?.message}
            hint={`At least ${PASSWORD_MIN} characters, mixing letters, numbers or symbols.`}
          >
            {(control) => <Input {...control} {...register("newPassword")} type="password" autoComplete="new-password" />}
          </Field>
          <Field label="New password again" required error={errors.confirmPassword?.message}>
            {(control) => <Input {...control} {...register("confirmPassword")} type="password" autoComplete="new-password" />}
          </Field>
          <Button type="submit" disabled={change.isPending} className="self-start">
            {change.isPending ? "Changing..." : "Change password"}
          </Button>
        </form>
      </div>
    </>
  );
}
