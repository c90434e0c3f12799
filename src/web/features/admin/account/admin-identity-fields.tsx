// An admin's name and the e-mail they sign in with: the fields of adding an admin and of editing one.
import type { FieldErrors, FieldValues, Path, UseFormRegister } from "react-hook-form";
import { Input } from "@/web/components/ui/input";
import { Field } from "../components/form-field";

/** Registered on the caller's form, whose values have a name and an e-mail among them. */
export function AdminIdentityFields<T extends FieldValues & { name?: string; email?: string }>({
  register,
  errors,
}: {
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
}) {
  const field = (key: "name" | "email") => register(key as Path<T>);
  return (
    <>
      <Field label="Name" required error={errors.name?.message as string | undefined}>
        {(control) => <Input {...control} {...field("name")} autoComplete="off" />}
      </Field>
      <Field label="Email" required error={errors.email?.message as string | undefined}>
        {(control) => <Input {...control} {...field("email")} type="email" inputMode="email" autoComplete="off" />}
      </Field>
    </>
  );
}
