// 'New client': the shared schema checks the form before it is sent, the server's refusals
// (a taken username, a channel with no address) appear beside their fields. No password is
// shown: the answer says where their welcome with a link to choose one was queued (masked).
// A new client waits for their first payment or starts a trial.
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import type { Resolver } from "react-hook-form";
import { type ClientCreate, type ClientCreated, clientCreateSchema } from "@/shared/business-schemas";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { toast } from "@/web/lib/toast";
import { DialogActions } from "../components/dialog-actions";
import { FormError } from "../components/form-field";
import { useServerForm } from "../components/use-server-form";
import { useCreateClient } from "./api/create-client";
import { CLIENT_FORM_FIELDS, ClientFormFields, type ClientFormValues, clientFormValues } from "./client-form";
import { ClientMade } from "./client-made";
import { QueuedToNote } from "./queued-to";

export function CreateClientDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [result, setResult] = useState<ClientCreated | null>(null);
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setResult(null);
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-2xl" onInteractOutside={(event) => event.preventDefault()}>
        {result ? (
          <ClientMade
            clientId={result.client.id}
            title={`${result.client.full_name} is now a client`}
            description="They choose their own portal password with the link in their welcome message."
            onDone={() => close(false)}
          >
            <QueuedToNote what="A link to choose a password" targets={result.queued_to} username={result.client.username} />
          </ClientMade>
        ) : (
          <CreateClientForm onCreated={setResult} onCancel={() => close(false)} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function CreateClientForm({ onCreated, onCancel }: { onCreated: (result: ClientCreated) => void; onCancel: () => void }) {
  const create = useCreateClient();
  const { register, watch, errors, isSubmitting, onSubmit } = useServerForm({
    resolver: zodResolver(clientCreateSchema) as Resolver<ClientFormValues, unknown, ClientCreate>,
    defaultValues: clientFormValues(),
    send: async (input) => {
      const answer = await create.mutateAsync(input);
      toast.success("Client created", { description: `${answer.client.full_name} (${answer.client.username}) was added.` });
      onCreated(answer);
    },
    failure: { fields: CLIENT_FORM_FIELDS, toast: "Client not created" },
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <DialogHeader>
        <DialogTitle>New client</DialogTitle>
        <DialogDescription>
          Add someone who signed up outside the website. They get a client portal login; their time comes from their payments (or a free
          trial).
        </DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-4">
        <FormError message={errors.root?.server?.message} />
        <ClientFormFields register={register} errors={errors} internetPlatform={watch("internet_platform")} mode="create" />
      </div>
      <DialogActions onCancel={onCancel} busy={isSubmitting} submit="Create client" busyLabel="Creating..." />
    </form>
  );
}
