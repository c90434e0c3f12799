// The catalogue's one-click changes (show or hide, feature, move up or down, a new version) and
// the Order field of its forms.
import type { UseFormRegisterReturn } from "react-hook-form";
import { Input } from "@/web/components/ui/input";
import { toast } from "@/web/lib/toast";
import { Field } from "../../components/form-field";

/**
 * Runs a one-click change and toasts how it went: `saved` (its title and line, which may use the
 * answer) once done, else `failed` with the server's reason.
 */
export async function quickSave<T>(
  work: () => Promise<T>,
  saved: { title: string; description: string | ((answer: T) => string) },
  failed: string,
): Promise<void> {
  try {
    const answer = await work();
    toast.success(saved.title, { description: typeof saved.description === "function" ? saved.description(answer) : saved.description });
  } catch (err) {
    toast.error(failed, { description: err instanceof Error ? err.message : "Please try again." });
  }
}

/** 'Order': where a row comes in its list. */
export function OrderField({ error, registration }: { error?: string; registration: UseFormRegisterReturn }) {
  return (
    <Field label="Order" error={error} hint="Lower numbers show first">
      {(control) => <Input {...control} {...registration} inputMode="numeric" />}
    </Field>
  );
}
