// 'Edit' on an admin: their name and sign-in e-mail (a typo, a new address). Passwords are each
// admin's own, under My account.
import { type FormEvent, useEffect, useState } from "react";
import { toast } from "sonner";
import { adminPatchSchema } from "@/shared/admin-schemas";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { apiFieldErrors, Field, type FieldErrors, FormError, parseForm } from "../components/form-field";
import type { AdminAccount } from "./api/get-admins";
import { useUpdateAdmin } from "./api/update-admin";

export function EditAdminDialog({ admin, onClose }: { admin: AdminAccount | null; onClose: () => void }) {
  const update = useUpdateAdmin();
  const [values, setValues] = useState({ name: "", email: "" });
  const [errors, setErrors] = useState<FieldErrors>({});

  useEffect(() => {
    if (admin) setValues({ name: admin.name, email: admin.email });
    setErrors({});
  }, [admin]);

  const set = (key: "name" | "email") => (event: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: event.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!admin) return;
    const parsed = parseForm(adminPatchSchema, values);
    if ("errors" in parsed) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    try {
      const saved = await update.mutateAsync({ id: admin.id, patch: parsed.data });
      toast.success("Admin saved", { description: `${saved.name} signs in as ${saved.email}.` });
      onClose();
    } catch (error) {
      const fields = apiFieldErrors(error);
      if (fields) setErrors(fields);
      toast.error("Admin not saved", { description: error instanceof Error ? error.message : "Please try again." });
    }
  };

  return (
    <Dialog open={admin !== null} onOpenChange={(open) => !open && !update.isPending && onClose()}>
      <DialogContent>
        <form onSubmit={submit} noValidate>
          <DialogHeader>
            <DialogTitle>Edit {admin?.name || admin?.email}</DialogTitle>
            <DialogDescription>Their name, and the e-mail they sign in with.</DialogDescription>
          </DialogHeader>
          <div className="flex flex-col gap-4">
            <FormError errors={errors} />
            <Field label="Name" required error={errors.name}>
              {(control) => <Input {...control} value={values.name} onChange={set("name")} autoComplete="off" />}
            </Field>
            <Field label="Email" required error={errors.email}>
              {(control) => (
                <Input {...control} type="email" inputMode="email" value={values.email} onChange={set("email")} autoComplete="off" />
              )}
            </Field>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={update.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={update.isPending}>
              {update.isPending ? "Saving..." : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
