// A dashboard form whose values go to the server: react-hook-form, checked by the shared schema
// the server checks with (or a resolver of the form's own), and a submit that sends the checked
// values and, when that fails, shows why: a refusal beside the fields it names, anything else
// above the fields (showServerErrors) or in a toast (toastServerErrors). What a success does next
// (a toast, closing the dialog) is the caller's `send`.
import { zodResolver } from "@hookform/resolvers/zod";
import { type DefaultValues, type FieldValues, type Path, type Resolver, useForm } from "react-hook-form";
import type { z } from "zod";
import { showServerErrors, toastServerErrors } from "./form-field";

/** The fields a refusal may name, and where anything else goes: above the fields (with `fallback` when it has no words) or a toast titled `toast`. */
type Failure<V extends FieldValues> = { fields: readonly Path<V>[] } & ({ fallback: string } | { toast: string });

/** The form's values as typed (`V`) are checked by the shared schema, whose output (`Out`) is sent, or by a resolver of the form's own. */
type Check<V extends FieldValues, Out> =
  | { schema: z.ZodType<Out>; resolver?: never }
  | { resolver: Resolver<V, unknown, Out>; schema?: never };

export function useServerForm<V extends FieldValues, Out>({
  defaultValues,
  send,
  failure,
  ...check
}: Check<V, Out> & {
  defaultValues: DefaultValues<V>;
  send: (input: Out) => Promise<void>;
  failure: Failure<V>;
}) {
  const resolver = check.resolver ?? (zodResolver(check.schema as z.ZodType<Out, V>) as Resolver<V, unknown, Out>);
  const form = useForm<V, unknown, Out>({ resolver, defaultValues });
  const onSubmit = form.handleSubmit(async (input) => {
    try {
      await send(input);
    } catch (error) {
      if ("toast" in failure) toastServerErrors(error, form.setError, failure.fields, failure.toast);
      else showServerErrors(error, form.setError, failure.fields, failure.fallback);
    }
  });
  return { ...form, onSubmit };
}
