// 'New special' / 'Edit special': the package (chosen from the list, or typed), the original
// and special price, the saving worked out as you type, an optional title, description and
// date window (South African days), and whether it is on.
import type { Package } from "@/shared/api";
import { saDay } from "@/shared/dates";
import { formatRand } from "@/shared/money";
import { specialInputSchema, specialPatchSchema } from "@/shared/schemas";
import { Input } from "@/web/components/ui/input";
import { Textarea } from "@/web/components/ui/textarea";
import { Field } from "../../components/form-field";
import { saDayStartIso } from "../../components/format";
import type { AdminSpecial } from "../api/types";
import { CheckboxField } from "../components/checkbox-field";
import { FormDialog, useCatalogueForm } from "../components/form-dialog";
import { matchedPackage } from "./matched-package";

interface SpecialFormValues extends Record<string, unknown> {
  package_name: string;
  original_price: string;
  special_price: string;
  title: string;
  description: string;
  is_active: boolean;
  starts_at: string;
  ends_at: string;
}

function formValues(s?: AdminSpecial): SpecialFormValues {
  return {
    package_name: s?.package_name ?? "",
    original_price: s ? String(s.original_price) : "",
    special_price: s ? String(s.special_price) : "",
    title: s?.title ?? "",
    description: s?.description ?? "",
    is_active: s?.is_active ?? true,
    starts_at: s?.starts_at ? saDay(s.starts_at) : "",
    ends_at: s?.ends_at ? saDay(s.ends_at) : "",
  };
}

function toBody(values: Partial<SpecialFormValues>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...values };
  if (values.starts_at !== undefined) body.starts_at = values.starts_at ? saDayStartIso(values.starts_at) : "";
  if (values.ends_at !== undefined) body.ends_at = values.ends_at ? `${values.ends_at}T23:59:59+02:00` : "";
  return body;
}

const amount = (text: string) => (/^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : null);

/** What customers save, once both prices are amounts. */
function savingOf(values: SpecialFormValues): number | null {
  const original = amount(values.original_price);
  const price = amount(values.special_price);
  return original !== null && price !== null ? original - price : null;
}

export function SpecialFormDialog({
  special,
  packages,
  open,
  onOpenChange,
}: {
  special?: AdminSpecial;
  packages: Package[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return open ? <SpecialForm key={special?.id ?? "new"} special={special} packages={packages} onDone={() => onOpenChange(false)} /> : null;
}

function SpecialForm({ special, packages, onDone }: { special?: AdminSpecial; packages: Package[]; onDone: () => void }) {
  const { register, values, set, errors, ...form } = useCatalogueForm({
    resource: "specials",
    id: special?.id,
    initial: formValues(special),
    schema: special ? specialPatchSchema : specialInputSchema,
    toBody,
    success: special ? "Special saved" : "Special created",
    failure: special ? "Special not saved" : "Special not created",
    description: (typed) => {
      if (special) return undefined;
      const saved = savingOf(typed);
      return `${typed.package_name.trim()}: save ${saved !== null ? formatRand(saved) : ""}.`;
    },
    onDone,
  });

  const original = amount(values.original_price);
  const price = amount(values.special_price);
  const saving = savingOf(values);
  const match =
    original !== null && price !== null && values.package_name.trim()
      ? matchedPackage({ package_name: values.package_name.trim(), original_price: original, special_price: price }, packages)
      : null;

  // Choosing a listed package fills in its price as the original, unless one was typed.
  const choosePackage = (name: string) => {
    const pkg = packages.find((p) => p.name === name);
    if (pkg && !values.original_price.trim()) set("original_price")(String(pkg.price));
  };

  return (
    <FormDialog
      form={form}
      title={special ? `Edit the special on ${special.package_name}` : "New special"}
      description="It shows on the package's card when the name and original price match that package."
      submitLabel={special ? "Save changes" : "Create special"}
    >
      <Field label="Package name" required error={errors.package_name} hint="Choose a package or type a name, e.g. 3 Months">
        {(control) => (
          <>
            <Input
              {...control}
              list={`${control.id}-packages`}
              {...register("package_name", { onChange: (e) => choosePackage(e.target.value) })}
              autoComplete="off"
            />
            <datalist id={`${control.id}-packages`}>
              {packages.map((p) => (
                <option key={p.id} value={p.name}>
                  {formatRand(p.price)}
                </option>
              ))}
            </datalist>
          </>
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Original price (R)" required error={errors.original_price}>
          {(control) => <Input {...control} {...register("original_price")} inputMode="decimal" />}
        </Field>
        <Field label="Special price (R)" required error={errors.special_price}>
          {(control) => <Input {...control} {...register("special_price")} inputMode="decimal" />}
        </Field>
      </div>
      <div aria-live="polite" className="rounded-xl border border-line bg-surface-raised px-4 py-3 text-sm">
        {saving !== null && saving > 0 ? (
          <p className="font-semibold text-special-ink" data-testid="special-saving">
            Customers save {formatRand(saving)}
          </p>
        ) : (
          <p className="text-ink-muted">The saving shows here once both prices are in (the special price must be lower).</p>
        )}
        {values.package_name.trim() && original !== null && price !== null ? (
          match ? (
            <p className="mt-1 text-ink-muted">Shows on the {match.name} card.</p>
          ) : (
            <p className="mt-1 text-warn">No package has this name and price {formatRand(original)}: the special won't show on any card.</p>
          )
        ) : null}
      </div>
      <Field label="Title" error={errors.title} hint="Optional, e.g. Winter deal">
        {(control) => <Input {...control} {...register("title")} />}
      </Field>
      <Field label="Description" error={errors.description}>
        {(control) => <Textarea {...control} {...register("description")} rows={2} />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Starts" error={errors.starts_at} hint="Blank: now">
          {(control) => <Input {...control} type="date" {...register("starts_at")} />}
        </Field>
        <Field label="Ends" error={errors.ends_at} hint="Blank: until you switch it off">
          {(control) => <Input {...control} type="date" {...register("ends_at")} />}
        </Field>
      </div>
      <CheckboxField label="Active" checked={values.is_active} onChange={set("is_active")} error={errors.is_active} />
    </FormDialog>
  );
}
