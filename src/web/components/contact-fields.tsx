// Who is ordering or paying, on the order form and the payment review step: the full name, the
// WhatsApp number and the e-mail address, each a FormField (form-field.tsx) tied to its control.
// The caller gives the control's id, its registration and its message; the hints say where the
// login details will go (shared/login-channel.ts).
import type { ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { FormField, fieldAria } from "@/web/components/form-field";
import { Input } from "@/web/components/ui/input";

interface ContactFieldProps {
  /** the control's id */
  id: string;
  /** the control's registration with the form (react-hook-form's `register` shape) */
  field: UseFormRegisterReturn;
  error?: string;
}

export function FullNameField({ id, field, error }: ContactFieldProps) {
  return (
    <FormField id={id} label="Full Name" required error={error} className="sm:col-span-2">
      <Input id={id} autoComplete="name" aria-required="true" {...fieldAria(id, { error })} {...field} />
    </FormField>
  );
}

export function WhatsAppField({ id, field, error, hint }: ContactFieldProps & { hint: ReactNode }) {
  return (
    <FormField id={id} label="WhatsApp Number" required error={error} hint={hint}>
      <Input
        id={id}
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        placeholder="+27 XX XXX XXXX"
        aria-required="true"
        {...fieldAria(id, { error, hint: true })}
        {...field}
      />
    </FormField>
  );
}

/** Required on the order form; optional (and labelled so) when paying. */
export function EmailField({ id, field, error, hint, required = false }: ContactFieldProps & { hint: ReactNode; required?: boolean }) {
  return (
    <FormField id={id} label={required ? "E-mail Address" : "E-mail Address (optional)"} required={required} error={error} hint={hint}>
      <Input
        id={id}
        type="email"
        inputMode="email"
        autoComplete="email"
        aria-required={required ? "true" : undefined}
        {...fieldAria(id, { error, hint: true })}
        {...field}
      />
    </FormField>
  );
}
