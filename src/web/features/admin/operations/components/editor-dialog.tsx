import { type ReactNode, useState } from "react";
import { type DefaultValues, type FieldValues, type Path, type PathValue, useForm } from "react-hook-form";
import type { z } from "zod";
import { toast } from "@/web/lib/toast";
import { FormDialog } from "../../catalogue/components/form-dialog";
import { apiFieldErrors, type FieldErrors, messagesByPath, useBodyResolver } from "../../components/form-field";
import type { AdminResource } from "../api/resource";
import { useSaveResource } from "../api/save-resource";

export interface EditorDialogProps<V extends FieldValues> {
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
}

/** The fields whose value differs (compared as JSON). */
function changedOnly(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(after).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key])));
}

export function EditorDialog<V extends FieldValues>(props: EditorDialogProps<V>) {
  const { open, onOpenChange, id } = props;
  // a fresh form for each row (and for a new one)
  return open ? <EditorForm key={id ?? "new"} {...props} onDone={() => onOpenChange(false)} /> : null;
}

/**
 * Which row a section's editor is open on: `current` (undefined when creating), `edit(row)`,
 * `create()`, and `dialog`, EditorDialog's open, onOpenChange and id.
 */
export function useEditor<T extends { id: string }>() {
  const [editing, setEditing] = useState<T | "new" | null>(null);
  const current = editing === "new" ? undefined : (editing ?? undefined);
  return {
    current,
    edit: (row: T) => setEditing(row),
    create: () => setEditing("new"),
    dialog: { open: editing !== null, onOpenChange: (open: boolean) => (open ? undefined : setEditing(null)), id: current?.id },
  };
}

function EditorForm<V extends FieldValues>({
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
  const bodyOf = (values: V) => (id ? changedOnly(toBody(initial), toBody(values)) : toBody(values));
  // The form holds what is typed; the resolver checks the body it becomes with the server's own
  // rules (the shared schema the caller passes).
  const resolver = useBodyResolver<V, V>(id ? patchSchema : createSchema, bodyOf, { keep: "values" });
  const {
    handleSubmit,
    watch,
    setValue,
    setError,
    formState: { errors: errorTree },
  } = useForm<V>({ resolver, defaultValues: initial as DefaultValues<V> });
  const values = watch() as V;
  const { root, ...fieldTree } = errorTree;
  const errors = messagesByPath(fieldTree, { rollUp: true });
  const set = <K extends keyof V>(key: K, value: V[K]) =>
    setValue(String(key) as Path<V>, value as PathValue<V, Path<V>>, { shouldDirty: true });

  const submit = handleSubmit(async (checked) => {
    // the body itself is sent (a blank clears a field)
    const body = bodyOf(checked);
    if (id && Object.keys(body).length === 0) {
      onDone();
      return;
    }
    try {
      await save.mutateAsync({ body, id });
      toast.success(id ? `${resource.label} saved` : `${resource.label} created`, { description: saved(checked) });
      onDone();
    } catch (error) {
      for (const [field, message] of Object.entries(apiFieldErrors(error) ?? {})) {
        setError(field ? (field as Path<V>) : "root.server", { type: "server", message });
      }
      toast.error(id ? `${resource.label} not saved` : `${resource.label} not created`, {
        description: error instanceof Error ? error.message : "Please try again.",
      });
    }
  });

  return (
    <FormDialog
      form={{ submit, pending: save.isPending, formError: root?.server?.message, onDone }}
      title={title}
      description={description}
      submitLabel={id ? "Save changes" : "Create"}
    >
      {fields(values, set, errors)}
    </FormDialog>
  );
}
