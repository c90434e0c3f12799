// 'Edit' on an admin: their name and sign-in e-mail (a typo, a new address). Passwords are each
// admin's own, under My account. react-hook-form over the shared adminPatchSchema.
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { adminPatchSchema } from "@/shared/admin-schemas";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { toast } from "@/web/lib/toast";
import { DialogActions } from "../components/dialog-actions";
import { FormError, setServerErrors } from "../components/form-field";
import { AdminIdentityFields } from "./admin-identity-fields";
import type { AdminAccount } from "./api/get-admins";
import { useUpdateAdmin } from "./api/update-admin";

type AdminPatch = z.output<typeof adminPatchSchema>;

export function EditAdminDialog({ admin, onClose }: { admin: AdminAccount | null; onClose: () => void }) {
  const update = useUpdateAdmin();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<AdminPatch>({ resolver: zodResolver(adminPatchSchema), defaultValues: { name: "", email: "" } });

  useEffect(() => {
    if (admin) reset({ name: admin.name, email: admin.email });
  }, [admin, reset]);

  const submit = handleSubmit(async (patch) => {
    if (!admin) return;
    try {
      const saved = await update.mutateAsync({ id: admin.id, patch });
      toast.success("Admin saved", { description: `${saved.name} signs in as ${saved.email}.` });
      onClose();
    } catch (error) {
      setServerErrors(error, setError, ["name", "email"]);
      toast.error("Admin not saved", { description: error instanceof Error ? error.message : "Please try again." });
    }
  });

  return (
    <Dialog open={admin !== null} onOpenChange={(open) => !open && !update.isPending && onClose()}>
      <DialogContent>
        <form onSubmit={submit} noValidate>
          <DialogHeader>
            <DialogTitle>Edit {admin?.name || admin?.email}</DialogTitle>
            <DialogDescription>Their name, and the e-mail they sign in with.</DialogDescription>
          </DialogHeader>
          <div className="flex flex-col gap-4">
            <FormError message={errors.root?.server?.message} />
            <AdminIdentityFields register={register} errors={errors} />
          </div>
          <DialogActions onCancel={onClose} busy={update.isPending} submit="Save" busyLabel="Saving..." />
        </form>
      </DialogContent>
    </Dialog>
  );
}
