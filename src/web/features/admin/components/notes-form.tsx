// The team's notes on a client or a lead: one textarea checked with the shared schema
// (clientNotesSchema, leadNotesSchema), saved on request. Someone else's edit that arrives through
// the live feed is taken, unless the admin is mid-edit.
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useId, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { FieldError } from "@/web/components/form-field";
import { Button } from "@/web/components/ui/button";
import { Textarea } from "@/web/components/ui/textarea";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";
import { FormError, toastServerErrors } from "./form-field";

interface NotesValues {
  notes: string;
}

export function NotesForm({
  notes,
  schema,
  save,
  label,
  hideLabel,
  rows,
  placeholder,
  className,
}: {
  /** the notes as stored now */
  notes: string;
  schema: z.ZodType<NotesValues, NotesValues>;
  save: (notes: string) => Promise<unknown>;
  label: string;
  /** the label for screen readers only (the section's heading says it) */
  hideLabel?: boolean;
  rows: number;
  placeholder: string;
  className?: string;
}) {
  const id = useId();
  const [resolver] = useState(() => zodResolver(schema));
  const {
    register,
    handleSubmit,
    reset,
    setError,
    getValues,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<NotesValues>({ resolver, defaultValues: { notes } });
  const base = useRef(notes);
  useEffect(() => {
    if (getValues("notes") === base.current) reset({ notes });
    base.current = notes;
  }, [notes, getValues, reset]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save(values.notes);
      reset(values);
      toast.success("Notes saved");
    } catch (error) {
      toastServerErrors(error, setError, ["notes"], "Notes not saved");
    }
  });

  return (
    <form className={cn("flex flex-col gap-2", className)} onSubmit={onSubmit} noValidate>
      <label htmlFor={id} className={hideLabel ? "sr-only" : "text-sm font-medium text-ink"}>
        {label}
      </label>
      <Textarea
        id={id}
        rows={rows}
        placeholder={placeholder}
        aria-invalid={errors.notes ? true : undefined}
        aria-describedby={errors.notes ? `${id}-error` : undefined}
        {...register("notes")}
      />
      <FieldError id={id} error={errors.notes?.message} />
      <FormError message={errors.root?.server?.message} />
      <div>
        <Button type="submit" variant="secondary" size="sm" disabled={!isDirty || isSubmitting}>
          {isSubmitting ? "Saving..." : "Save notes"}
        </Button>
      </div>
    </form>
  );
}
