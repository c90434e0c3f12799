// 'Extend': adds a package's months from the later of now and the current end, and makes the
// client active (lifting a suspension).
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import type { AdminClient } from "@/shared/business-schemas";
import { formatDate } from "@/shared/dates";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { Select } from "@/web/components/ui/select";
import { useAdminPackages } from "../api/get-admin-packages";
import { apiFieldErrors, Field, type FieldErrors, FormError } from "../components/form-field";
import { packageChoice } from "../components/format";
import { useClientAction } from "./api/client-action";

export function ExtendClientDialog({
  client,
  open,
  onOpenChange,
}: {
  client: AdminClient;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const packages = useAdminPackages();
  const action = useClientAction();
  const [packageId, setPackageId] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const chosen = packageId ?? client.package_id ?? "";

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) {
      setErrors({ package_id: "Please choose a package" });
      return;
    }
    setErrors({});
    try {
      const updated = await action.mutateAsync({ id: client.id, action: "extend", body: { package_id: chosen } });
      toast.success("Subscription extended", {
        description: `${client.full_name} now runs to ${formatDate(updated.subscription_end)}.`,
      });
      onOpenChange(false);
    } catch (error) {
      const fields = apiFieldErrors(error);
      if (fields) setErrors(fields);
      else toast.error("Not extended", { description: error instanceof Error ? error.message : "Please try again." });
    }
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !action.isPending && onOpenChange(next)}>
      <DialogContent>
        <form onSubmit={submit} noValidate>
          <DialogHeader>
            <DialogTitle>Extend {client.full_name}</DialogTitle>
            <DialogDescription>
              Adds the package's months from {client.subscription_end ? "the later of today and their current end" : "today"}. This doesn't
              record a payment; use Payments for that.
            </DialogDescription>
          </DialogHeader>
          <div className="flex flex-col gap-4">
            <FormError errors={errors} />
            <Field label="Extend by" error={errors.package_id}>
              {(control) => (
                <Select {...control} value={chosen} onChange={(e) => setPackageId(e.target.value)} disabled={packages.isPending}>
                  <option value="">{packages.isPending ? "Loading packages..." : "Choose a package"}</option>
                  {packages.data?.map((p) => (
                    <option key={p.id} value={p.id}>
                      {packageChoice(p)}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={action.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={action.isPending}>
              {action.isPending ? "Extending..." : "Extend"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
