// /admin/branding: the business's name, tagline, WhatsApp number and support e-mail (shown in
// the header, footer, messages and legal pages), and the business details the legal pages state.
import { zodResolver } from "@hookform/resolvers/zod";
import { useRef } from "react";
import { type Resolver, type ResolverOptions, useForm } from "react-hook-form";
import { type BrandingUpdate, brandingUpdateSchema } from "@/shared/admin-schemas";
import type { BrandingMap } from "@/shared/api";
import { formatPhoneForDisplay } from "@/shared/whatsapp";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Skeleton } from "@/web/components/ui/skeleton";
import { toast } from "@/web/lib/toast";
import { AdminPageHeader } from "../../components/admin-page-header";
import { Field, FormError, setServerErrors } from "../../components/form-field";
import { useBranding } from "../api/get-branding";
import { useResourceList } from "../api/resources";
import type { AdminSetting } from "../api/types";
import { useUpdateBranding } from "../api/update-branding";
import { changedFields } from "../components/form-values";
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

type BrandingValues = Record<keyof BrandingUpdate, string>;
const FIELDS = ["company_name", "tagline", "whatsapp_number", "support_email"] as const;
const checkBranding: Resolver<Partial<BrandingValues>, unknown, BrandingUpdate> = zodResolver(brandingUpdateSchema);

const brandingValues = (branding: BrandingMap): BrandingValues => ({
  company_name: branding.company_name ?? "",
  tagline: branding.tagline ?? "",
  whatsapp_number: branding.whatsapp_number ?? "",
  support_email: branding.support_email ?? "",
});

function BrandingForm({ branding }: { branding: BrandingMap }) {
  const initial = useRef(brandingValues(branding));
  const update = useUpdateBranding();
  // Only what changed is checked and sent (a setting never filled in stays as it is); no change, nothing to send.
  const resolver: Resolver<BrandingValues, unknown, BrandingUpdate> = async (values, context, options) => {
    const changed = changedFields(initial.current, values);
    if (!Object.keys(changed).length) return { values: {}, errors: {} };
    return checkBranding(changed, context, options as ResolverOptions<Partial<BrandingValues>>);
  };
  const {
    register,
    handleSubmit,
    setError,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<BrandingValues, unknown, BrandingUpdate>({ resolver, defaultValues: initial.current });
  const whatsapp = watch("whatsapp_number");

  const submit = handleSubmit(
    async (changed) => {
      if (!Object.keys(changed).length) return;
      try {
        const answer = await update.mutateAsync(changed);
        const next = brandingValues(answer.data);
        initial.current = next;
        reset(next);
        toast.success("Branding saved", { description: "The site shows it at once." });
      } catch (error) {
        setServerErrors(error, setError, FIELDS);
        toast.error("Branding not saved", { description: error instanceof Error ? error.message : "Please try again." });
      }
    },
    () => toast.error("Branding not saved", { description: "Please check the highlighted fields." }),
  );

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
      <FormError message={errors.root?.server?.message} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Company name" required error={errors.company_name?.message}>
          {(control) => <Input {...control} {...register("company_name")} />}
        </Field>
        <Field label="Tagline" error={errors.tagline?.message}>
          {(control) => <Input {...control} {...register("tagline")} />}
        </Field>
        <Field
          label="WhatsApp number"
          error={errors.whatsapp_number?.message}
          hint={whatsapp ? `Customers see ${formatPhoneForDisplay(whatsapp)}` : "Any local form, e.g. 082 123 4567"}
        >
          {(control) => <Input {...control} {...register("whatsapp_number")} type="tel" inputMode="tel" />}
        </Field>
        <Field label="Support e-mail" error={errors.support_email?.message}>
          {(control) => <Input {...control} {...register("support_email")} type="email" inputMode="email" />}
        </Field>
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Saving..." : "Save branding"}
        </Button>
      </div>
    </form>
  );
}
