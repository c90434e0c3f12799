// /admin/branding: the business's name, tagline, WhatsApp number and support e-mail (shown in
// the header, footer, messages and legal pages), and the business details the legal pages state.
import { type FormEvent, useState } from "react";
import { brandingUpdateSchema } from "@/shared/admin-schemas";
import type { BrandingMap } from "@/shared/api";
import { formatPhoneForDisplay } from "@/shared/whatsapp";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import { AdminPageHeader } from "../../components/admin-page-header";
import { Field, FormError } from "../../components/form-field";
import { useBranding } from "../api/get-branding";
import { useResourceList } from "../api/resources";
import type { AdminSetting } from "../api/types";
import { useUpdateBranding } from "../api/update-branding";
import { changedFields, useSave } from "../components/use-save";
import { BUSINESS_GROUP } from "./setting-groups";
import { SettingsGroupForm } from "./settings-group-form";

export function BrandingSection() {
  const branding = useBranding();
  const settings = useResourceList<AdminSetting>("settings");
  return (
    <>
      <AdminPageHeader title="Branding" description="Who the business is to customers: on every page, message and legal notice." />
      <div className="flex flex-col gap-6">
        {branding.data ? (
          <BrandingForm branding={branding.data} />
        ) : branding.error ? (
          <LoadError message={branding.error.message} />
        ) : (
          <Skeleton className="h-80 w-full" />
        )}
        {settings.data ? (
          <SettingsGroupForm group={BUSINESS_GROUP} settings={settings.data} />
        ) : settings.error ? (
          <LoadError message={settings.error.message} />
        ) : (
          <Skeleton className="h-80 w-full" />
        )}
      </div>
    </>
  );
}

function LoadError({ message }: { message: string }) {
  return (
    <p role="alert" className="rounded-card border border-bad/40 bg-bad/5 p-6 text-ink">
      This couldn't load: {message}
    </p>
  );
}

function BrandingForm({ branding }: { branding: BrandingMap }) {
  const [initial, setInitial] = useState(() => ({
    company_name: branding.company_name ?? "",
    tagline: branding.tagline ?? "",
    whatsapp_number: branding.whatsapp_number ?? "",
    support_email: branding.support_email ?? "",
  }));
  const [values, setValues] = useState(initial);
  const update = useUpdateBranding();
  const { errors, pending, save } = useSave();
  const set = (key: keyof typeof values) => (value: string) => setValues((old) => ({ ...old, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const changed = changedFields(initial, values);
    if (!Object.keys(changed).length) return;
    await save({
      schema: brandingUpdateSchema,
      body: changed,
      send: async (body) => {
        const answer = await update.mutateAsync(body);
        const next = {
          company_name: answer.data.company_name ?? "",
          tagline: answer.data.tagline ?? "",
          whatsapp_number: answer.data.whatsapp_number ?? "",
          support_email: answer.data.support_email ?? "",
        };
        setInitial(next);
        setValues(next);
      },
      success: "Branding saved",
      description: "The site shows it at once.",
      failure: "Branding not saved",
    });
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4 rounded-card border border-line bg-surface p-4 sm:p-6"
      aria-labelledby="branding-heading"
    >
      <h2 id="branding-heading" className="text-lg font-semibold text-ink">
        Name and contact
      </h2>
      <FormError errors={errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Company name" required error={errors.company_name}>
          {(control) => <Input {...control} value={values.company_name} onChange={(e) => set("company_name")(e.target.value)} />}
        </Field>
        <Field label="Tagline" error={errors.tagline}>
          {(control) => <Input {...control} value={values.tagline} onChange={(e) => set("tagline")(e.target.value)} />}
        </Field>
        <Field
          label="WhatsApp number"
          error={errors.whatsapp_number}
          hint={
            values.whatsapp_number ? `Customers see ${formatPhoneForDisplay(values.whatsapp_number)}` : "Any local form, e.g. 082 123 4567"
          }
        >
          {(control) => (
            <Input
              {...control}
              value={values.whatsapp_number}
              onChange={(e) => set("whatsapp_number")(e.target.value)}
              type="tel"
              inputMode="tel"
            />
          )}
        </Field>
        <Field label="Support e-mail" error={errors.support_email}>
          {(control) => (
            <Input
              {...control}
              value={values.support_email}
              onChange={(e) => set("support_email")(e.target.value)}
              type="email"
              inputMode="email"
            />
          )}
        </Field>
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving..." : "Save branding"}
        </Button>
      </div>
    </form>
  );
}
