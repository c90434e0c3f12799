// One save, the same way on every catalogue form: check the body with the shared zod schema,
// send it, toast the outcome, and keep each field's message (the browser's or the server's)
// under the field's full path ('price', 'features.2', 'content.links.0.url').
import { useState } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import { ApiError } from "@/web/lib/api";
import type { FieldErrors } from "../../components/form-field";

/** The first message for each full field path of a failed parse ('' for the form itself). */
export function pathErrors(error: z.ZodError, prefix = ""): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join(".");
    const key = prefix && path ? `${prefix}.${path}` : prefix || path;
    errors[key] ??= issue.message;
  }
  return errors;
}

export interface SaveOptions<S extends z.ZodType> {
  /** the shared schema the server checks with; its output is what is sent */
  schema?: S;
  body: unknown;
  send: (data: z.output<S>) => Promise<unknown>;
  /** e.g. 'Package saved' */
  success: string;
  description?: string;
  /** e.g. 'Package not saved' */
  failure: string;
  /** where the schema's paths sit in the server's field names (e.g. 'content') */
  prefix?: string;
}

export function useSave() {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);

  async function save<S extends z.ZodType>(options: SaveOptions<S>): Promise<boolean> {
    let data = options.body as z.output<S>;
    if (options.schema) {
      const parsed = options.schema.safeParse(options.body);
      if (!parsed.success) {
        setErrors(pathErrors(parsed.error, options.prefix));
        toast.error(options.failure, { description: "Please check the highlighted fields." });
        return false;
      }
      data = parsed.data;
    }
    setErrors({});
    setPending(true);
    try {
      await options.send(data);
      toast.success(options.success, options.description ? { description: options.description } : undefined);
      return true;
    } catch (error) {
      if (error instanceof ApiError && (error.status === 400 || error.status === 409)) {
        setErrors(Object.keys(error.fields).length ? { ...error.fields } : { "": error.message });
      }
      toast.error(options.failure, { description: error instanceof Error ? error.message : "Please try again." });
      return false;
    } finally {
      setPending(false);
    }
  }

  return { errors, setErrors, pending, save };
}

/** The fields whose value differs from the start (compared as JSON), for a PATCH. */
export function changedFields<T extends Record<string, unknown>>(initial: T, values: T): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(values) as (keyof T)[]) {
    if (JSON.stringify(values[key]) !== JSON.stringify(initial[key])) changed[key] = values[key];
  }
  return changed;
}

/** '12' → 12, '' → undefined, 'x' → 'x' (left for the schema to refuse with its message). */
export function wholeNumber(value: string): number | string | undefined {
  const text = value.trim();
  if (!text) return undefined;
  return /^-?\d+$/.test(text) ? Number(text) : text;
}
