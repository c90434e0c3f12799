// /admin/account: who is signed in, and changing their password (the current one first; the
// new one follows the same rules as everywhere). Other devices are signed out afterwards.
import { KeyRound } from "lucide-react";
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { passwordChangeSchema } from "@/shared/admin-schemas";
import { PASSWORD_MIN } from "@/shared/schemas";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { ApiError } from "@/web/lib/api";
import { AdminPageHeader } from "../components/admin-page-header";
import { apiFieldErrors, Field, type FieldErrors, FormError, parseForm } from "../components/form-field";
import { useAdminSession } from "../session/admin-session";
import { useChangePassword } from "./api/change-password";

const EMPTY = { currentPassword: "", newPassword: "", confirmPassword: "" };

export function MyAccountSection() {
  const { session } = useAdminSession();
  const change = useChangePassword();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = (key: keyof typeof EMPTY) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseForm(passwordChangeSchema, values);
    const found: FieldErrors = "errors" in parsed ? { ...parsed.errors } : {};
    if (values.confirmPassword !== values.newPassword) found.confirmPassword = "The two new passwords don't match";
    if ("errors" in parsed || Object.keys(found).length) {
      setErrors(found);
      return;
    }
    setErrors({});
    try {
      await change.mutateAsync(parsed.data);
      setValues(EMPTY);
      toast.success("Password changed", { description: "Use it next time you sign in. Your other devices were signed out." });
    } catch (error) {
      const fields = apiFieldErrors(error);
      if (fields) setErrors(fields);
      else if (error instanceof ApiError && error.status === 429) setErrors({ "": error.message });
      toast.error("Password not changed", { description: error instanceof Error ? error.message : "Please try again." });
    }
  };

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
          <FormError errors={errors} />
          <Field label="Current password" required error={errors.currentPassword}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="current-password"
                value={values.currentPassword}
                onChange={set("currentPassword")}
              />
            )}
          </Field>
          <Field
            label="New password"
            required
            error={errors.newPassword}
            hint={`At least ${PASSWORD_MIN} characters, mixing letters, numbers or symbols.`}
          >
            {(control) => (
              <Input {...control} type="password" autoComplete="new-password" value={values.newPassword} onChange={set("newPassword")} />
            )}
          </Field>
          <Field label="New password again" required error={errors.confirmPassword}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="new-password"
                value={values.confirmPassword}
                onChange={set("confirmPassword")}
              />
            )}
          </Field>
          <Button type="submit" disabled={change.isPending} className="self-start">
            {change.isPending ? "Changing..." : "Change password"}
          </Button>
        </form>
      </div>
    </>
  );
}
