// A labelled form field whose error and hint are tied to the control (aria-describedby,
// aria-invalid), plus the helpers that put a react-hook-form form's messages (the schema's, the
// server's 400/409) beside its fields.
import { zodResolver } from "@hookform/resolvers/zod";
import { type ReactNode, useId, useState } from "react";
import type { FieldValues, FieldErrors as FormErrors, Path, Resolver, UseFormSetError } from "react-hook-form";
import type { z } from "zod";
import { FieldError, fieldAria } from "@/web/components/form-field";
import { Label } from "@/web/components/ui/label";
import { ApiError } from "@/web/lib/api";
import { cn } from "@/web/lib/cn";
import { toast } from "@/web/lib/toast";

export type FieldErrors = Record<string, string>;

export interface ControlProps {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

export function Field({
  label,
  error,
  hint,
  required,
  className,
  children,
}: {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className={cn("flex min-w-0 flex-col gap-2", className)}>
      <Label htmlFor={id} required={required}>
        {label}
      </Label>
      {children({ id, ...fieldAria(id, { error, hint: Boolean(hint) }) })}
      {hint ? (
        <p id={hintId} className="text-xs text-ink-subtle">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A server refusal as field messages; the message itself under '' when no field is named. */
export function apiFieldErrors(error: unknown): FieldErrors | null {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 409)) return null;
  const fields = { ...error.fields };
  if (!Object.keys(fields).length) fields[""] = error.message;
  return fields;
}

/**
 * A server refusal (400/409) onto a react-hook-form form: each field the form has gets its
 * message (a field's item too: 'features.2' when the form has 'features'); anything else (no
 * field named, or one the form does not show) lands on `root.server`. False when the error was
 * no refusal, for the caller to say so another way.
 */
export function setServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, known: readonly Path<T>[]): boolean {
  const fields = apiFieldErrors(error);
  if (!fields) return false;
  for (const [field, message] of Object.entries(fields)) {
    const shown = (known as readonly string[]).some((name) => field === name || field.startsWith(`${name}.`));
    if (shown) setError(field as Path<T>, { type: "server", message });
    else setError("root.server", { type: "server", message });
  }
  return true;
}

/**
 * Any failure of a form's call onto the form: a refusal as setServerErrors places it, anything
 * else (the network, a server fault) above the fields in its own words or, with none, `fallback`.
 */
export function showServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  known: readonly Path<T>[],
  fallback: string,
): void {
  if (!setServerErrors(error, setError, known))
    setError("root.server", { type: "server", message: error instanceof Error ? error.message : fallback });
}

/**
 * Any failure of a form's call: a refusal as setServerErrors places it, anything else in a toast
 * titled `title` ('Not saved') with the failure's own words or, with none, `fallback`.
 */
export function toastServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  known: readonly Path<T>[],
  title: string,
  fallback = "Please try again.",
): void {
  if (!setServerErrors(error, setError, known)) toast.error(title, { description: error instanceof Error ? error.message : fallback });
}

/**
 * The messages of a react-hook-form error tree (without its `root`) under their full paths
 * ('content.links.0.url'); with `rollUp`, each top-level field also under its own name (its first
 * message), for a field that shows its items' messages in one place.
 */
export function messagesByPath(tree: object, { rollUp = false } = {}, prefix = ""): FieldErrors {
  const found: FieldErrors = {};
  for (const [key, node] of Object.entries(tree)) {
    if (key === "ref" || key === "types" || !node || typeof node !== "object") continue;
    const path = key === "root" ? prefix : prefix ? `${prefix}.${key}` : key;
    if (typeof node.message === "string") found[path] ??= node.message;
    for (const [deeper, message] of Object.entries(messagesByPath(node, {}, path))) {
      found[deeper] ??= message;
      if (rollUp && !prefix) found[key] ??= message;
    }
  }
  return found;
}

type Body = Record<string, unknown>;

/**
 * The resolver of a form whose values are not yet the request body (numbers typed as text, only
 * the changed fields, content built from several fields): it checks `bodyOf(values)` with the
 * shared schema the server checks with, under the server's field names, and hands on the
 * schema's output, or with `keep: "values"` the values as typed. The body's paths name no
 * registered field, so none is focused or checked natively by the resolver itself.
 */
export function useBodyResolver<V extends FieldValues, Out = Body>(
  schema: z.ZodType,
  bodyOf: (values: V) => Body,
  { keep = "output" }: { keep?: "output" | "values" } = {},
): Resolver<V, unknown, Out> {
  const [check] = useState(() => zodResolver(schema as z.ZodType<Body, Body>));
  return async (values, context, options) => {
    const checked = await check(bodyOf(values), context, {
      fields: {},
      criteriaMode: options.criteriaMode,
      shouldUseNativeValidation: false,
    });
    if (Object.keys(checked.errors).length) return { values: {}, errors: checked.errors as FormErrors<V> };
    return { values: (keep === "values" ? values : checked.values) as Out, errors: {} };
  };
}

/** The form-level message (no field named), if any: from a FieldErrors map, or given directly. */
export function FormError({ errors, message: given }: { errors?: FieldErrors; message?: string }) {
  const message = given ?? errors?.[""];
  if (!message) return null;
  return (
    <p role="alert" className="rounded-xl border border-bad/40 bg-bad/10 px-4 py-3 text-sm text-bad">
      {message}
    </p>
  );
}
