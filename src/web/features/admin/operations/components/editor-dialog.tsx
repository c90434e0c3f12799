// The create/edit dialog of one row of a generic admin resource (notices, articles, releases,
// components, incidents): the caller gives the fields and how form values become a body; this
// checks the body with the shared schema, creates (POST) or sends only what changed (PATCH),
// toasts, and shows the server's field errors beside the fields.
import { type FormEvent, type ReactNode, useState } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { apiFieldErrors, type FieldErrors, FormError, parseForm } from "../../components/form-field";
import type { AdminResource } from "../api/resource";
import { useSaveResource } from "../api/save-resource";

export interface EditorDialogProps<V> {
  resource: AdminResource;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** the row's id when editing; absent to create */
  id?: string;
  title: string;
  description?: ReactNode;
  initial: V;
  /** form values → the request body (dates with their zone, blanks as null where they clear) */
  toBody: (values: V) => Record<string, unknown>;
  createSchema: z.ZodType;
  patchSchema: z.ZodType;
  fields: (values: V, set: <K extends keyof V>(key: K, value: V[K]) => void, errors: FieldErrors) => ReactNode;
  /** the toast's line once saved */
  saved: (values: V) => string;
  className?: string;
}

/** The fields whose value differs (compared as JSON). */
function changedOnly(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(after).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])));
}

export function EditorDialog<V>(props: EditorDialogProps<V>) {
  const { open, onOpenChange, className } = props;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className={className ?? "max-w-2xl"} onInteractOutside={(event) => event.preventDefault()}>
        {open ? <EditorForm {...props} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function EditorForm<V>({
  resource,
  id,
  title,
  description,
  initial,
  toBody,
  createSchema,
  patchSchema,
  fields,
  saved,
  onDone,
}: EditorDialogProps<V> & { onDone: () => void }) {
  const save = useSaveResource(resource);
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const set = <K extends keyof V>(key: K, value: V[K]) => setValues((v) => ({ ...v, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = id ? changedOnly(toBody(initial), toBody(values)) : toBody(values);
    if (id && Object.keys(body).length === 0) {
      onDone();
      return;
    }
    // Checked with the server's own rules first; the body itself is sent (a blank clears a field).
    const parsed = parseForm(id ? patchSchema : createSchema, body);
    if ("errors" in parsed) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ body, id });
      toast.success(id ? `${resource.label} saved` : `${resource.label} created`, { description: saved(values) });
      onDone();
    } catch (error) {
      const fieldErrors = apiFieldErrors(error);
      if (fieldErrors) setErrors(fieldErrors);
      toast.error(id ? `${resource.label} not saved` : `${resource.label} not created`, {
        description: error instanceof Error ? error.message : "Please try again.",
      });
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        {description ? (
          <DialogDescription>{description}</DialogDescription>
        ) : (
          <DialogDescription className="sr-only">{title}</DialogDescription>
        )}
      </DialogHeader>
      <div className="flex flex-col gap-4">
        <FormError errors={errors} />
        {fields(values, set, errors)}
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? "Saving..." : id ? "Save changes" : "Create"}
        </Button>
      </DialogFooter>
    </form>
  );
}
