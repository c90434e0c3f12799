// 'New package' and 'Edit package': name, price, duration, the months it runs for, the
// features list, the description, and whether it is live and 'Most Popular'. An edit sends
// only what changed. Checked with the shared schemas (react-hook-form + zodResolver, in
// useCatalogueForm) before the server checks them again.
import type { Package } from "@/shared/api";
import { packageInputSchema, packagePatchSchema } from "@/shared/schemas";
import { Input } from "@/web/components/ui/input";
import { Textarea } from "@/web/components/ui/textarea";
import { Field } from "../../components/form-field";
import { CheckboxField } from "../components/checkbox-field";
import { FormDialog, useCatalogueForm } from "../components/form-dialog";
import { wholeNumber } from "../components/form-values";
import { ListEditor } from "../components/list-editor";

interface PackageFormValues extends Record<string, unknown> {
  name: string;
  price: string;
  duration: string;
  duration_months: string;
  features: string[];
  description: string;
  is_active: boolean;
  is_featured: boolean;
}

function formValues(pkg?: Package): PackageFormValues {
  return {
    name: pkg?.name ?? "",
    price: pkg ? String(pkg.price) : "",
    duration: pkg?.duration ?? "",
    duration_months: pkg ? String(pkg.duration_months) : "1",
    features: pkg?.features ?? [],
    description: pkg?.description ?? "",
    is_active: pkg?.is_active ?? true,
    is_featured: pkg?.is_featured ?? false,
  };
}

function toBody(values: Partial<PackageFormValues>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...values };
  if (values.duration_months !== undefined) body.duration_months = wholeNumber(values.duration_months);
  if (values.features !== undefined) body.features = values.features.map((f) => f.trim());
  return body;
}

export function PackageFormDialog({
  pkg,
  open,
  onOpenChange,
}: {
  /** the package to edit; none for a new one */
  pkg?: Package;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return open ? <PackageForm key={pkg?.id ?? "new"} pkg={pkg} onDone={() => onOpenChange(false)} /> : null;
}

function PackageForm({ pkg, onDone }: { pkg?: Package; onDone: () => void }) {
  const { register, values, set, errors, ...form } = useCatalogueForm({
    resource: "packages",
    id: pkg?.id,
    initial: formValues(pkg),
    schema: pkg ? packagePatchSchema : packageInputSchema,
    toBody,
    success: pkg ? "Package saved" : "Package created",
    failure: pkg ? "Package not saved" : "Package not created",
    description: ({ name, is_active }) =>
      pkg
        ? `${name.trim()} is up to date on the pricing page.`
        : is_active
          ? `${name.trim()} now shows on the pricing page.`
          : `${name.trim()} is saved (inactive).`,
    onDone,
  });

  return (
    <FormDialog
      form={form}
      title={pkg ? `Edit ${pkg.name}` : "New package"}
      description="Prices are in rand. Changes show on the public pricing page at once."
      submitLabel={pkg ? "Save changes" : "Create package"}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" required error={errors.name} className="sm:col-span-2">
          {(control) => <Input {...control} {...register("name")} placeholder="3 Months" />}
        </Field>
        <Field label="Price (R)" required error={errors.price}>
          {(control) => <Input {...control} {...register("price")} inputMode="decimal" placeholder="1650" />}
        </Field>
        <Field label="Duration" required error={errors.duration} hint="As customers read it, e.g. 3 Months">
          {(control) => <Input {...control} {...register("duration")} placeholder="3 Months" />}
        </Field>
        <Field label="Months it runs for" error={errors.duration_months} hint="Used to set a client's end date">
          {(control) => <Input {...control} {...register("duration_months")} inputMode="numeric" />}
        </Field>
      </div>
      <ListEditor
        label="Features"
        name="features"
        itemLabel="Feature"
        items={values.features}
        onChange={set("features")}
        errors={errors}
        placeholder="e.g. HD and 4K streaming"
      />
      <Field label="Description" error={errors.description}>
        {(control) => <Textarea {...control} {...register("description")} rows={3} />}
      </Field>
      <div className="grid gap-2 sm:grid-cols-2">
        <CheckboxField label="Active (shown on the site)" checked={values.is_active} onChange={set("is_active")} error={errors.is_active} />
        <CheckboxField label="Most Popular badge" checked={values.is_featured} onChange={set("is_featured")} error={errors.is_featured} />
      </div>
    </FormDialog>
  );
}
