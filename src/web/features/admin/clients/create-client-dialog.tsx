// 'New client': the shared schema checks the form before it is sent, the server's refusals
// (a taken username, a channel with no address) appear beside their fields, and the new
// portal password is shown once.
import { CircleCheck } from "lucide-react";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import { type ClientWithPassword, clientCreateSchema } from "@/shared/business-schemas";
import { Button, buttonClasses } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { apiFieldErrors, type FieldErrors, FormError, parseForm } from "../components/form-field";
import { OneTimePassword } from "../components/one-time-password";
import { useCreateClient } from "./api/create-client";
import { ClientFormFields, clientFormValues, createBody } from "./client-form";

export function CreateClientDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [result, setResult] = useState<ClientWithPassword | null>(null);
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) setResult(null);
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-2xl" onInteractOutside={(event) => event.preventDefault()}>
        {result ? (
          <>
            <DialogHeader>
              <DialogTitle className="flex items-center gap-2">
                <CircleCheck aria-hidden="true" className="size-6 text-ok" />
                {result.client.full_name} is now a client
              </DialogTitle>
              <DialogDescription>Give them these details to sign in to the client portal.</DialogDescription>
            </DialogHeader>
            <OneTimePassword username={result.client.username} password={result.password} />
            <DialogFooter>
              <Link to={`/admin/client/${result.client.id}`} className={buttonClasses({ variant: "outline" })} onClick={() => close(false)}>
                Open client
              </Link>
              <Button onClick={() => close(false)}>Done</Button>
            </DialogFooter>
          </>
        ) : (
          <CreateClientForm onCreated={setResult} onCancel={() => close(false)} />
        )}
      </DialogContent>
    </Dialog>
  );
}

function CreateClientForm({ onCreated, onCancel }: { onCreated: (result: ClientWithPassword) => void; onCancel: () => void }) {
  const create = useCreateClient();
  const [values, setValues] = useState(() => clientFormValues());
  const [errors, setErrors] = useState<FieldErrors>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseForm(clientCreateSchema, createBody(values));
    if ("errors" in parsed) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    try {
      const answer = await create.mutateAsync(parsed.data);
      toast.success("Client created", { description: `${answer.client.full_name} (${answer.client.username}) was added.` });
      onCreated(answer);
    } catch (error) {
      const fields = apiFieldErrors(error);
      if (fields) setErrors(fields);
      else toast.error("Client not created", { description: error instanceof Error ? error.message : "Please try again." });
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>New client</DialogTitle>
        <DialogDescription>Add someone who signed up outside the website. They get a client portal login.</DialogDescription>
      </DialogHeader>
      <div className="flex flex-col gap-4">
        <FormError errors={errors} />
        <ClientFormFields values={values} onChange={setValues} errors={errors} mode="create" />
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onCancel} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating..." : "Create client"}
        </Button>
      </DialogFooter>
    </form>
  );
}
