import type { BaseSyntheticEvent, ReactNode } from "react";
import { type DefaultValues, type FieldValues, type Path, type PathValue, useForm } from "react-hook-form";
import type { z } from "zod";
import { DialogDescription, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";
import { DialogActions } from "../../components/dialog-actions";
import { FormError, messagesByPath, setServerErrors, useBodyResolver } from "../../components/form-field";
import { BusyLockedDialog } from "../../components/form-only-dialog";
import { type CatalogueResource, useCreateResource, useUpdateResource } from "../api/resources";
import { changedFields, wholeNumber } from "./form-values";

type Body = Record<string, unknown>;

export interface CatalogueFormOptions<V extends FieldValues> {
  resource: CatalogueResource;
  /** the row's id when editing (only what changed is checked and sent); none to create */
  id?: string;
  /** what the fields start with */
  initial: V;
  /** the shared schema the server checks the body with: the patch schema when editing */
  schema: z.ZodType;
  /** form values (on an edit, the changed ones) → the body (numbers from text, days with their zone) */
  toBody?: (values: Partial<V>) => Body;
  /** how a new row is sent, when not by POST to the resource (a setting is upserted by key) */
  create?: (body: Body) => Promise<unknown>;
  /** the toasts: 'Package created' / 'Package not created' */
  success: string;
  failure: string;
  /** the success toast's line, from what was typed */
  description?: (values: V) => string | undefined;
  onDone: () => void;
}

/** The body with its 'Order' as a whole number (blank: 0), for the rows sorted by it. */
export function sortOrderBody(values: { sort_order?: string }): Body {
  return values.sort_order === undefined ? { ...values } : { ...values, sort_order: wholeNumber(values.sort_order) ?? 0 };
}

export function useCatalogueForm<V extends FieldValues>(options: CatalogueFormOptions<V>) {
  const { resource, id, initial, toBody = (values) => ({ ...values }), success, failure, description, onDone } = options;
  const create = useCreateResource(resource);
  const update = useUpdateResource(resource);
  const bodyOf = (values: V) => (id ? toBody(changedFields(initial, values)) : toBody(values));
  // The form holds what is typed; the schema's output (the numbers and trimmed text) is sent.
  const resolver = useBodyResolver<V>(options.schema, bodyOf);
  const form = useForm<V, unknown, Body>({ resolver, defaultValues: initial as DefaultValues<V> });
  const { root, ...fieldTree } = form.formState.errors;

  const submit = form.handleSubmit(
    async (body) => {
      const values = form.getValues();
      try {
        if (!id) await (options.create ?? create.mutateAsync)(body);
        else if (Object.keys(body).length) await update.mutateAsync({ id, patch: body });
        const line = description?.(values);
        toast.success(success, line ? { description: line } : undefined);
        onDone();
      } catch (error) {
        setServerErrors(error, form.setError, Object.keys(initial) as Path<V>[]);
        toast.error(failure, { description: error instanceof Error ? error.message : "Please try again." });
      }
    },
    () => toast.error(failure, { description: "Please check the highlighted fields." }),
  );

  return {
    register: form.register,
    /** what is typed now */
    values: form.watch(),
    /** sets a field the form does not register (a checkbox, a list) */
    set:
      <K extends Path<V>>(key: K) =>
      (value: PathValue<V, K>) =>
        form.setValue(key, value, { shouldDirty: true }),
    /** each field's message under its full path ('features.2') */
    errors: messagesByPath(fieldTree),
    formError: root?.server?.message,
    pending: form.formState.isSubmitting,
    submit,
    onDone,
  };
}

/** What FormDialog needs of the form it shows. */
export interface FormDialogForm {
  submit: (event?: BaseSyntheticEvent) => Promise<void>;
  pending: boolean;
  formError?: string;
  onDone: () => void;
}

export function FormDialog({
  form,
  title,
  description,
  submitLabel = "Save",
  wide,
  children,
}: {
  form: FormDialogForm;
  title: string;
  description?: ReactNode;
  submitLabel?: string;
  wide?: boolean;
  children: ReactNode;
}) {
  const { submit, pending, formError, onDone } = form;
  return (
    <BusyLockedDialog busy={pending} onClose={onDone} className={cn(wide ? "max-w-3xl" : "max-w-2xl")}>
      <form onSubmit={submit} noValidate>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          {description ? (
            <DialogDescription>{description}</DialogDescription>
          ) : (
            <DialogDescription className="sr-only">{title}</DialogDescription>
          )}
        </DialogHeader>
        <div className="flex flex-col gap-5">
          <FormError message={formError} />
          {children}
        </div>
        <DialogActions onCancel={onDone} busy={pending} submit={submitLabel} busyLabel="Saving..." />
      </form>
    </BusyLockedDialog>
  );
}
