// The client form's fields, shared by 'New client' and 'Edit client', on react-hook-form with
// the shared schemas as resolvers. The status and the term are not here: they are the
// lifecycle's (payments, a trial, a reasoned grant, suspend and reactivate), never typed in. A
// new client only says how they start: waiting for the first payment, or on a free trial now.
import type { ReactNode } from "react";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import type { AdminClient } from "@/shared/business-schemas";
import { DEVICES, INTERNET_PLATFORMS } from "@/shared/options";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { useAdminPackages } from "../api/get-admin-packages";
import { useLifecycleRules } from "../api/get-lifecycle-rules";
import { ChoiceCard, PackageOptions } from "../components/choices";
import { Field } from "../components/form-field";

/** What the inputs hold; the schemas turn it into a request body ('' package → null, ...). */
export interface ClientFormValues {
  full_name: string;
  username: string;
  email: string;
  whatsapp: string;
  communication_method: "whatsapp" | "email";
  marketing_opt_in: boolean;
  package_id: string;
  device: string;
  internet_platform: string;
  line_username: string;
  line_password: string;
  line_portal_url: string;
  notes: string;
  /** 'New client' only */
  start?: "pending" | "trial";
}

/** Every field the form shows, for placing the server's field errors. */
export const CLIENT_FORM_FIELDS = [
  "full_name",
  "username",
  "email",
  "whatsapp",
  "communication_method",
  "marketing_opt_in",
  "package_id",
  "device",
  "internet_platform",
  "line_username",
  "line_password",
  "line_portal_url",
  "notes",
  "start",
] as const satisfies readonly (keyof ClientFormValues)[];

export function clientFormValues(client?: AdminClient): ClientFormValues {
  const values: ClientFormValues = {
    full_name: client?.full_name ?? "",
    username: client?.username ?? "",
    email: client?.email ?? "",
    whatsapp: client?.whatsapp ?? "",
    communication_method: client?.communication_method === "email" ? "email" : "whatsapp",
    marketing_opt_in: client?.marketing_opt_in ?? false,
    package_id: client?.package_id ?? "",
    device: client?.device ?? "",
    internet_platform: client?.internet_platform ?? "",
    line_username: client?.line_username ?? "",
    line_password: client?.line_password ?? "",
    line_portal_url: client?.line_portal_url ?? "",
    notes: client?.notes ?? "",
  };
  return client ? values : { ...values, start: "pending" };
}

export function ClientFormFields({
  register,
  errors,
  internetPlatform,
  mode,
}: {
  register: UseFormRegister<ClientFormValues>;
  errors: FieldErrors<ClientFormValues>;
  /** the current value, to keep a stored platform that is not one of the choices */
  internetPlatform: string;
  mode: "create" | "edit";
}) {
  const packages = useAdminPackages();
  const platformKnown = INTERNET_PLATFORMS.some((p) => p.value === internetPlatform) || internetPlatform === "";

  return (
    <div className="flex flex-col gap-6">
      <Group title="Person">
        <Field label="Full name" required error={errors.full_name?.message}>
          {(control) => <Input {...control} {...register("full_name")} autoComplete="off" required />}
        </Field>
        <Field
          label="Portal username"
          error={errors.username?.message}
          hint={mode === "create" ? "Leave blank to make one from their name." : "They sign in to the client portal with this."}
        >
          {(control) => <Input {...control} {...register("username")} autoCapitalize="none" autoComplete="off" spellCheck={false} />}
        </Field>
        <Field label="Email" error={errors.email?.message}>
          {(control) => <Input {...control} {...register("email")} type="email" inputMode="email" autoComplete="off" />}
        </Field>
        <Field label="WhatsApp number" error={errors.whatsapp?.message}>
          {(control) => (
            <Input {...control} {...register("whatsapp")} type="tel" inputMode="tel" placeholder="+27 XX XXX XXXX" autoComplete="off" />
          )}
        </Field>
        <Field label="Reach them by" error={errors.communication_method?.message}>
          {(control) => (
            <Select {...control} {...register("communication_method")}>
              <option value="whatsapp">WhatsApp</option>
              <option value="email">Email</option>
            </Select>
          )}
        </Field>
        <label className="flex min-h-11 items-center gap-3 self-end text-sm text-ink">
          <input type="checkbox" {...register("marketing_opt_in")} className="size-5 accent-[var(--color-accent)]" />
          Agreed to receive offers
        </label>
      </Group>

      <Group title="Subscription">
        {mode === "create" ? <StartChoice register={register} error={errors.start?.message} /> : null}
        <Field
          label="Package"
          error={errors.package_id?.message}
          hint={mode === "create" ? "What they will pay for: their first payment adds its months." : undefined}
        >
          {(control) =>
            // Registered once its options are there, so the stored choice shows selected.
            packages.isPending ? (
              <Select {...control} disabled>
                <option>Loading packages...</option>
              </Select>
            ) : (
              <Select {...control} {...register("package_id")}>
                <option value="">No package</option>
                <PackageOptions packages={packages.data} />
              </Select>
            )
          }
        </Field>
        <Field label="Device" error={errors.device?.message}>
          {(control) => (
            <Select {...control} {...register("device")}>
              <option value="">Not known</option>
              {DEVICES.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Internet" error={errors.internet_platform?.message}>
          {(control) => (
            <Select {...control} {...register("internet_platform")}>
              <option value="">Not known</option>
              {INTERNET_PLATFORMS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
              {platformKnown ? null : <option value={internetPlatform}>{internetPlatform}</option>}
            </Select>
          )}
        </Field>
      </Group>

      <Group title="Streaming line" description="From the upstream provider; only this client and admins see it.">
        <Field label="Line username" error={errors.line_username?.message}>
          {(control) => <Input {...control} {...register("line_username")} autoCapitalize="none" autoComplete="off" spellCheck={false} />}
        </Field>
        <Field label="Line password" error={errors.line_password?.message}>
          {(control) => <Input {...control} {...register("line_password")} autoCapitalize="none" autoComplete="off" spellCheck={false} />}
        </Field>
        <Field label="Portal URL" error={errors.line_portal_url?.message} className="sm:col-span-2">
          {(control) => (
            <Input {...control} {...register("line_portal_url")} type="url" inputMode="url" placeholder="https://" autoComplete="off" />
          )}
        </Field>
      </Group>

      {mode === "create" ? (
        <Field label="Notes" error={errors.notes?.message}>
          {(control) => <Textarea {...control} {...register("notes")} rows={3} />}
        </Field>
      ) : null}
    </div>
  );
}

/** 'Starts': waiting for the first payment, or the free trial from now (its length from the settings). */
function StartChoice({ register, error }: { register: UseFormRegister<ClientFormValues>; error?: string }) {
  const { trialHours } = useLifecycleRules();
  const choices = [
    ["pending", "Waiting for first payment", "Their time starts when they pay."],
    ["trial", "Free trial now", `${trialHours} hours from now, then they pay to carry on.`],
  ] as const;
  return (
    <fieldset className="flex flex-col gap-2 sm:col-span-2" aria-describedby={error ? "client-start-error" : undefined}>
      <legend className="mb-2 text-sm font-medium text-ink">Starts</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {choices.map(([value, label, detail]) => (
          <ChoiceCard key={value} value={value} label={label} detail={detail} registration={register("start")} />
        ))}
      </div>
      {error ? (
        <p id="client-start-error" className="text-sm text-bad">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

function Group({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <fieldset className="flex flex-col gap-4">
      <legend className="mb-1 text-sm font-semibold tracking-wide text-ink-subtle uppercase">{title}</legend>
      {description ? <p className="-mt-2 text-xs text-ink-subtle">{description}</p> : null}
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}
