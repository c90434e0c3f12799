// A dashboard form whose values go to the server: react-hook-form, checked by the caller's
// resolver over the shared schema, and a submit that sends the checked values and, when that
// fails, shows why: a refusal beside the fields it names, anything else above the fields
// (showServerErrors) or in a toast (toastServerErrors). What a success does next (a toast,
// closing the dialog) is the caller's `send`.
import { type DefaultValues, type FieldValues, type Path, type Resolver, useForm } from "react-hook-form";
import { showServerErrors, toastServerErrors } from "./form-field";

/** The fields a refusal may name, and where anything else goes: above the fields (with `fallback` when it has no words) or a toast titled `toast`. */
type Failure<V extends FieldValues> = { fields: readonly Path<V>[] } & ({ fallback: string } | { toast: string });

export function useServerForm<V extends FieldValues, Out>({
  resolver,
  defaultValues,
  send,
  failure,
}: {
  /** zodResolver over the shared schema the server checks with (or a resolver built on it) */
  resolver: Resolver<V, unknown, Out>;
  defaultValues: DefaultValues<NoInfer<V>>;
  send: (input: Out) => Promise<void>;
  failure: Failure<V>;
}) {
  const form = useForm<V, unknown, Out>({ resolver, defaultValues });
  const onSubmit = form.handleSubmit(async (input) => {
    try {
      await send(input);
    } catch (error) {
      if ("toast" in failure) toastServerErrors(error, form.setError, failure.fields, failure.toast);
      else showServerErrors(error, form.setError, failure.fields, failure.fallback);
    }
  });
  // what every such form shows: each field's message, and the button busy while it sends
  return { ...form, errors: form.formState.errors, isSubmitting: form.formState.isSubmitting, onSubmit };
}
