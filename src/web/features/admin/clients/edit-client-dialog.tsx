// 'Edit client': the same fields as 'New client'; only what changed is sent.
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { type AdminClient, clientPatchSchema } from "@/shared/business-schemas";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { apiFieldErrors, type FieldErrors, FormError, parseForm } from "../components/form-field";
import { useUpdateClient } from "./api/update-client";
import { ClientFormFields, clientFormValues, patchBody } from "./client-form";

export function EditClientDialog({
  client,
  open,
  onOpenChange,
}: {
  client: AdminClient;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl" onInteractOutside={(event) => event.preventDefault()}>
        {open ? <EditClientForm client={client} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function EditClientForm({ client, onDone }: { client: AdminClient; onDone: () => void }) {
  const update = useUpdateClient();
  const [initial] = useState(() => clientFormValues(client));
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = patchBody(initial, values);
    if (Object.keys(body).length === 0) {
      onDone();
      return;
    }
    const parsed = parseForm(clientPatchSchema, body);
    if ("errors" in parsed) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    try {
      await update.mutateAsync({ id: client.id, patch: parsed.data });
      toast.success("Client updated", { description: `${values.full_name}'s details were saved.` });
      onDone();
    } catch (error) {
      const fields = apiFieldErrors(error);
      if (fields) setErrors(fields);
      else toast.error("Client not updated", { description: error instanceof Error ? error.message : "Please try again." });
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>Edit {client.full_name}</DialogTitle>
        <DialogDescription>Changes apply at once; the client sees them in their portal.</DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-4">
        <FormError errors={errors} />
        <ClientFormFields values={values} onChange={setValues} errors={errors} mode="edit" />
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={update.isPending}>
          {update.isPending ? "Saving..." : "Save changes"}
        </Button>
      </DialogFooter>
    </form>
  );
}
