// 'New package' and 'Edit package': name, price, duration, the months it runs for, the
// features list, the description, and whether it is live and 'Most Popular'. An edit sends
// only what changed. Checked with the shared schemas before the server checks them again.
import { useState } from "react";
import type { Package } from "@/shared/api";
import { packageInputSchema, packagePatchSchema } from "@/shared/schemas";
import { Input } from "@/web/components/ui/input";
import { Textarea } from "@/web/components/ui/textarea";
import { Field } from "../../components/form-field";
import { useCreateResource, useUpdateResource } from "../api/resources";
import { CheckboxField } from "../components/checkbox-field";
import { FormDialog } from "../components/form-dialog";
import { ListEditor } from "../components/list-editor";
import { changedFields, useSave, wholeNumber } from "../components/use-save";

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
  const [initial] = useState(() => formValues(pkg));
  const [values, setValues] = useState(initial);
  const create = useCreateResource<Package>("packages");
  const update = useUpdateResource<Package>("packages");
  const { errors, pending, save } = useSave();
  const set =
    <K extends keyof PackageFormValues>(key: K) =>
    (value: PackageFormValues[K]) =>
      setValues({ ...values, [key]: value });

  const submit = async () => {
    const ok = pkg
      ? await save({
          schema: packagePatchSchema,
          body: toBody(changedFields(initial, values)),
          send: (patch) => (Object.keys(patch).length ? update.mutateAsync({ id: pkg.id, patch }) : Promise.resolve()),
          success: "Package saved",
          description: `${values.name.trim()} is up to date on the pricing page.`,
          failure: "Package not saved",
        })
      : await save({
          schema: packageInputSchema,
          body: toBody(values),
          send: (body) => create.mutateAsync(body),
          success: "Package created",
          description: values.is_active
            ? `${values.name.trim()} now shows on the pricing page.`
            : `${values.name.trim()} is saved (inactive).`,
          failure: "Package not created",
        });
    if (ok) onDone();
  };

  return (
    <FormDialog
      open
      onOpenChange={(next) => !next && onDone()}
      title={pkg ? `Edit ${pkg.name}` : "New package"}
      description="Prices are in rand. Changes show on the public pricing page at once."
      errors={errors}
      pending={pending}
      submitLabel={pkg ? "Save changes" : "Create package"}
      onSubmit={submit}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" required error={errors.name} className="sm:col-span-2">
          {(control) => <Input {...control} value={values.name} onChange={(e) => set("name")(e.target.value)} placeholder="3 Months" />}
        </Field>
        <Field label="Price (R)" required error={errors.price}>
          {(control) => (
            <Input
              {...control}
              value={values.price}
              onChange={(e) => set("price")(e.target.value)}
              inputMode="decimal"
              placeholder="1650"
            />
          )}
        </Field>
        <Field label="Duration" required error={errors.duration} hint="As customers read it, e.g. 3 Months">
          {(control) => (
            <Input {...control} value={values.duration} onChange={(e) => set("duration")(e.target.value)} placeholder="3 Months" />
          )}
        </Field>
        <Field label="Months it runs for" error={errors.duration_months} hint="Used to set a client's end date">
          {(control) => (
            <Input
              {...control}
              value={values.duration_months}
              onChange={(e) => set("duration_months")(e.target.value)}
              inputMode="numeric"
            />
          )}
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
        {(control) => <Textarea {...control} value={values.description} onChange={(e) => set("description")(e.target.value)} rows={3} />}
      </Field>
      <div className="grid gap-2 sm:grid-cols-2">
        <CheckboxField label="Active (shown on the site)" checked={values.is_active} onChange={set("is_active")} error={errors.is_active} />
        <CheckboxField label="Most Popular badge" checked={values.is_featured} onChange={set("is_featured")} error={errors.is_featured} />
      </div>
    </FormDialog>
  );
}
