// The client form's fields, shared by 'New client' and 'Edit client'. Values are held as the
// inputs give them (text, 'YYYY-MM-DD' days) and turned into the shared schemas' shapes on
// submit; an edit sends only what changed, so untouched exact times are never rounded.
import type { ReactNode } from "react";
import { type AdminClient, CLIENT_STATUSES } from "@/shared/business-schemas";
import { saDay } from "@/shared/dates";
import { DEVICES, INTERNET_PLATFORMS } from "@/shared/options";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { useAdminPackages } from "../api/get-admin-packages";
import { Field, type FieldErrors } from "../components/form-field";
import { humanise, packageChoice, saDayStartIso } from "../components/format";

export interface ClientFormValues {
  full_name: string;
  username: string;
  email: string;
  whatsapp: string;
  communication_method: "whatsapp" | "email";
  marketing_opt_in: boolean;
  package_id: string;
  status: string;
  subscription_start: string;
  subscription_end: string;
  device: string;
  internet_platform: string;
  line_username: string;
  line_password: string;
  line_portal_url: string;
  notes: string;
}

const day = (iso: string | null) => (iso ? saDay(iso) : "");

export function clientFormValues(client?: AdminClient): ClientFormValues {
  return {
    full_name: client?.full_name ?? "",
    username: client?.username ?? "",
    email: client?.email ?? "",
    whatsapp: client?.whatsapp ?? "",
    communication_method: client?.communication_method === "email" ? "email" : "whatsapp",
    marketing_opt_in: client?.marketing_opt_in ?? false,
    package_id: client?.package_id ?? "",
    status: client?.status ?? "active",
    subscription_start: day(client?.subscription_start ?? null),
    subscription_end: day(client?.subscription_end ?? null),
    device: client?.device ?? "",
    internet_platform: client?.internet_platform ?? "",
    line_username: client?.line_username ?? "",
    line_password: client?.line_password ?? "",
    line_portal_url: client?.line_portal_url ?? "",
    notes: client?.notes ?? "",
  };
}

/** A start day begins at its midnight; an end day runs to its last second (both South African). */
function toBody(values: Partial<ClientFormValues>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...values };
  if (values.subscription_start !== undefined)
    body.subscription_start = values.subscription_start ? saDayStartIso(values.subscription_start) : "";
  if (values.subscription_end !== undefined)
    body.subscription_end = values.subscription_end ? `${values.subscription_end}T23:59:59+02:00` : "";
  return body;
}

/** The body for POST /api/admin/clients (parse it with clientCreateSchema). */
export function createBody(values: ClientFormValues): Record<string, unknown> {
  return toBody(values);
}

/** The changed fields only, for PATCH /api/admin/clients/:id (parse it with clientPatchSchema). */
export function patchBody(initial: ClientFormValues, values: ClientFormValues): Record<string, unknown> {
  const changed: Partial<ClientFormValues> = {};
  for (const key of Object.keys(values) as (keyof ClientFormValues)[]) {
    if (values[key] !== initial[key]) (changed as Record<string, unknown>)[key] = values[key];
  }
  return toBody(changed);
}

export function ClientFormFields({
  values,
  onChange,
  errors,
  mode,
}: {
  values: ClientFormValues;
  onChange: (values: ClientFormValues) => void;
  errors: FieldErrors;
  mode: "create" | "edit";
}) {
  const packages = useAdminPackages();
  const set =
    <K extends keyof ClientFormValues>(key: K) =>
    (value: ClientFormValues[K]) =>
      onChange({ ...values, [key]: value });
  const text = (key: keyof ClientFormValues) => ({
    value: values[key] as string,
    onChange: (event: { target: { value: string } }) => set(key)(event.target.value as never),
  });
  const platformKnown = INTERNET_PLATFORMS.some((p) => p.value === values.internet_platform) || values.internet_platform === "";

  return (
    <div className="flex flex-col gap-6">
      <Group title="Person">
        <Field label="Full name" required error={errors.full_name}>
          {(control) => <Input {...control} {...text("full_name")} autoComplete="off" required />}
        </Field>
        <Field
          label="Portal username"
          error={errors.username}
          hint={mode === "create" ? "Leave blank to make one from their name." : "They sign in to the client portal with this."}
        >
          {(control) => <Input {...control} {...text("username")} autoCapitalize="none" autoComplete="off" spellCheck={false} />}
        </Field>
        <Field label="Email" error={errors.email}>
          {(control) => <Input {...control} {...text("email")} type="email" inputMode="email" autoComplete="off" />}
        </Field>
        <Field label="WhatsApp number" error={errors.whatsapp}>
          {(control) => (
            <Input {...control} {...text("whatsapp")} type="tel" inputMode="tel" placeholder="+27 XX XXX XXXX" autoComplete="off" />
          )}
        </Field>
        <Field label="Reach them by" error={errors.communication_method}>
          {(control) => (
            <Select
              {...control}
              value={values.communication_method}
              onChange={(e) => set("communication_method")(e.target.value as "whatsapp" | "email")}
            >
              <option value="whatsapp">WhatsApp</option>
              <option value="email">Email</option>
            </Select>
          )}
        </Field>
        <label className="flex min-h-11 items-center gap-3 self-end text-sm text-ink">
          <input
            type="checkbox"
            checked={values.marketing_opt_in}
            onChange={(e) => set("marketing_opt_in")(e.target.checked)}
            className="size-5 accent-[var(--color-accent)]"
          />
          Agreed to receive offers
        </label>
      </Group>

      <Group title="Subscription">
        <Field label="Package" error={errors.package_id}>
          {(control) => (
            <Select
              {...control}
              value={values.package_id}
              onChange={(e) => set("package_id")(e.target.value)}
              disabled={packages.isPending}
            >
              <option value="">{packages.isPending ? "Loading packages..." : "No package"}</option>
              {packages.data?.map((p) => (
                <option key={p.id} value={p.id}>
                  {packageChoice(p)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Status" error={errors.status}>
          {(control) => (
            <Select {...control} value={values.status} onChange={(e) => set("status")(e.target.value)}>
              {CLIENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {humanise(s)}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field
          label="Starts"
          error={errors.subscription_start}
          hint={mode === "create" ? "Blank: today, for a trial or a package." : undefined}
        >
          {(control) => <Input {...control} {...text("subscription_start")} type="date" />}
        </Field>
        <Field
          label="Ends"
          error={errors.subscription_end}
          hint={mode === "create" ? "Blank: 24 hours for a trial, else the package's months." : undefined}
        >
          {(control) => <Input {...control} {...text("subscription_end")} type="date" />}
        </Field>
        <Field label="Device" error={errors.device}>
          {(control) => (
            <Select {...control} value={values.device} onChange={(e) => set("device")(e.target.value)}>
              <option value="">Not known</option>
              {DEVICES.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Internet" error={errors.internet_platform}>
          {(control) => (
            <Select {...control} value={values.internet_platform} onChange={(e) => set("internet_platform")(e.target.value)}>
              <option value="">Not known</option>
              {INTERNET_PLATFORMS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
              {platformKnown ? null : <option value={values.internet_platform}>{values.internet_platform}</option>}
            </Select>
          )}
        </Field>
      </Group>

      <Group title="Streaming line" description="From the upstream provider; only this client and admins see it.">
        <Field label="Line username" error={errors.line_username}>
          {(control) => <Input {...control} {...text("line_username")} autoCapitalize="none" autoComplete="off" spellCheck={false} />}
        </Field>
        <Field label="Line password" error={errors.line_password}>
          {(control) => <Input {...control} {...text("line_password")} autoCapitalize="none" autoComplete="off" spellCheck={false} />}
        </Field>
        <Field label="Portal URL" error={errors.line_portal_url} className="sm:col-span-2">
          {(control) => (
            <Input {...control} {...text("line_portal_url")} type="url" inputMode="url" placeholder="https://" autoComplete="off" />
          )}
        </Field>
      </Group>

      {mode === "create" ? (
        <Field label="Notes" error={errors.notes}>
          {(control) => <Textarea {...control} {...text("notes")} rows={3} />}
        </Field>
      ) : null}
    </div>
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
