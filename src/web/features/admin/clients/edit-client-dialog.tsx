// 'Edit client': the same fields as 'New client' (without how they start); only what changed is sent.
import { zodResolver } from "@hookform/resolvers/zod";
import { type Resolver, useForm } from "react-hook-form";
import { type AdminClient, type ClientPatch, clientPatchSchema } from "@/shared/business-schemas";
import { DialogDescription, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { toast } from "@/web/lib/toast";
import { DialogActions } from "../components/dialog-actions";
import { FormError, toastServerErrors } from "../components/form-field";
import { FormOnlyDialog } from "../components/form-only-dialog";
import { useUpdateClient } from "./api/update-client";
import type { ClientDialogProps } from "./client-dialog";
import { CLIENT_FORM_FIELDS, ClientFormFields, type ClientFormValues, clientFormValues } from "./client-form";

export function EditClientDialog({ client, open, onOpenChange }: ClientDialogProps) {
  return (
    <FormOnlyDialog
      open={open}
      onOpenChange={onOpenChange}
      className="max-w-2xl"
      form={(onDone) => <EditClientForm client={client} onDone={onDone} />}
    />
  );
}

function EditClientForm({ client, onDone }: { client: AdminClient; onDone: () => void }) {
  const update = useUpdateClient();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isSubmitting, dirtyFields },
  } = useForm<ClientFormValues, unknown, ClientPatch>({
    resolver: zodResolver(clientPatchSchema) as Resolver<ClientFormValues, unknown, ClientPatch>,
    defaultValues: clientFormValues(client),
  });

  const onSubmit = handleSubmit(async (parsed) => {
    // Only what the admin changed: a field someone else edited meanwhile is left alone.
    const patch = Object.fromEntries(Object.entries(parsed).filter(([key]) => dirtyFields[key as keyof ClientFormValues])) as ClientPatch;
    if (Object.keys(patch).length === 0) {
      onDone();
      return;
    }
    try {
      const saved = await update.mutateAsync({ id: client.id, patch });
      toast.success("Client updated", { description: `${saved.full_name}'s details were saved.` });
      onDone();
    } catch (error) {
      toastServerErrors(error, setError, CLIENT_FORM_FIELDS, "Client not updated");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <DialogHeader>
        <DialogTitle>Edit {client.full_name}</DialogTitle>
        <DialogDescription>
          Changes apply at once; the client sees them in their portal. Their status and dates change only through payments, a complimentary
          grant, or suspending.
        </DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-4">
        <FormError message={errors.root?.server?.message} />
        <ClientFormFields register={register} errors={errors} internetPlatform={watch("internet_platform")} mode="edit" />
      </div>
      <DialogActions onCancel={onDone} busy={isSubmitting} submit="Save changes" busyLabel="Saving..." />
    </form>
  );
}
