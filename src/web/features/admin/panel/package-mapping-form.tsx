// Which panel package each of our packages buys, and which one free trials are made on. The
// panel checks the choice on save; its refusals land on the row they name ("packages.<id>",
// "trial"). In sandbox mode an unmapped package uses the sandbox package of the same length.
// Where the chosen panel package has bouquets, the owner may tick the ones the package includes
// (none ticked: all of them); lines are made and extended with that choice.
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useId, useMemo } from "react";
import { type Resolver, type UseFormRegisterReturn, useForm } from "react-hook-form";
import { z } from "zod";
import type { AdminPanelView } from "@/shared/business-schemas";
import { FieldError, fieldAria } from "@/web/components/form-field";
import { Button } from "@/web/components/ui/button";
import { Select } from "@/web/components/ui/select";
import { toast } from "@/web/lib/toast";
import type { AdminPackage } from "../catalogue/api/types";
import { FormError, setServerErrors } from "../components/form-field";
import { priceTodayText } from "../components/format";
import { type PanelMapping, useSavePanelMapping } from "./api/save-panel-mapping";

type PanelPackage = AdminPanelView["packages"][number];

const panelPackageId = z.string().trim().max(100, "That is not a panel package");
/** The form's own shape (the server's route checks the same and more: that the panel has the package). */
const mappingFormSchema = z.object({
  packages: z.record(z.string(), panelPackageId),
  trial: panelPackageId,
  bouquets: z.record(z.string(), z.array(z.string())).optional(),
});

const duration = (n: number, unit: string) => `${n} ${n === 1 ? unit.replace(/s$/, "") : unit}`;

function panelPackageText(p: PanelPackage, trial: boolean): string {
  const length = trial ? duration(p.trial_duration, p.trial_duration_in) : duration(p.official_duration, p.official_duration_in);
  const credits = trial ? "" : ` · ${p.official_credits} ${p.official_credits === 1 ? "credit" : "credits"}`;
  return `${p.name} (${length}${credits})`;
}

/** The sandbox panel's package of the same length, which it uses for an unmapped package. */
function sandboxDefault(view: AdminPanelView, pkg: AdminPackage): PanelPackage | undefined {
  return view.packages.find((p) => !p.is_trial && p.official_duration_in === "months" && p.official_duration === pkg.duration_months);
}

/** '1 Month · R650 today', without the length when the name already says it. */
function packageDetail(pkg: AdminPackage): string {
  const length = pkg.duration && pkg.duration.toLowerCase() !== pkg.name.toLowerCase() ? `${pkg.duration} · ` : "";
  return `${length}${priceTodayText(pkg)}${pkg.is_active ? "" : " · not on sale"}`;
}

function defaults(view: AdminPanelView, packages: AdminPackage[]): PanelMapping {
  return {
    packages: Object.fromEntries(packages.map((p) => [p.id, view.mapping[p.id] ?? ""])),
    trial: view.trial_package_id ?? "",
    bouquets: Object.fromEntries(packages.map((p) => [p.id, view.bouquets?.[p.id] ?? []])),
  };
}

export function PackageMappingForm({ view, packages }: { view: AdminPanelView; packages: AdminPackage[] }) {
  const save = useSavePanelMapping();
  const initial = useMemo(() => defaults(view, packages), [view, packages]);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    watch,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<PanelMapping>({
    resolver: zodResolver(mappingFormSchema) as Resolver<PanelMapping>,
    defaultValues: initial,
  });

  // A change saved elsewhere (another admin, the live feed) shows, unless this admin is mid-edit.
  useEffect(() => {
    if (!isDirty) reset(initial);
  }, [initial, isDirty, reset]);

  const bouquetsOf = (panelPackage: string | undefined) => view.packages.find((p) => p.id === panelPackage)?.bouquets ?? [];
  const onSubmit = handleSubmit(async ({ packages: chosen, trial, bouquets }) => {
    // Bouquets only for packages whose panel package has some to choose from.
    const picked = Object.entries(bouquets ?? {}).filter(([id]) => bouquetsOf(chosen[id]).length > 0);
    const mapping: PanelMapping = { packages: chosen, trial, ...(picked.length ? { bouquets: Object.fromEntries(picked) } : {}) };
    try {
      const saved = await save.mutateAsync(mapping);
      reset(defaults(saved, packages));
      toast.success("Package mapping saved", { description: "New lines and renewals use it from now on." });
    } catch (error) {
      const known = [
        ...packages.map((p) => `packages.${p.id}` as const),
        ...packages.map((p) => `bouquets.${p.id}` as const),
        "trial" as const,
      ];
      if (!setServerErrors(error, setError, known))
        toast.error("Mapping not saved", { description: error instanceof Error ? error.message : "Please try again." });
    }
  });

  const paid = view.packages.filter((p) => !p.is_trial);
  const trials = [...view.packages].sort((a, b) => Number(b.is_trial) - Number(a.is_trial));
  const sandbox = view.mode === "sandbox";

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Package mapping">
      <FormError message={errors.root?.server?.message} />
      {!view.connected ? (
        <p className="rounded-xl border border-warn/40 bg-warn/10 px-4 py-3 text-sm text-ink-muted">
          The panel's packages can't be read right now, so only the saved choices are listed. You can still clear one.
        </p>
      ) : null}
      <ul className="flex flex-col divide-y divide-line rounded-xl border border-line">
        {packages.map((pkg) => {
          const auto = sandbox ? sandboxDefault(view, pkg) : undefined;
          return (
            <MappingRow
              key={pkg.id}
              title={pkg.name}
              detail={packageDetail(pkg)}
              error={errors.packages?.[pkg.id]?.message}
              current={initial.packages[pkg.id] ?? ""}
              known={view.packages}
              emptyLabel={auto ? `Automatic: ${auto.name}` : "Not mapped: lines wait for you"}
              options={paid.map((p) => ({ value: p.id, label: panelPackageText(p, false) }))}
              register={register(`packages.${pkg.id}`)}
              bouquets={{
                options: bouquetsOf(watch(`packages.${pkg.id}`)),
                error: (errors.bouquets?.[pkg.id] as { message?: string } | undefined)?.message,
                register: register(`bouquets.${pkg.id}`),
              }}
            />
          );
        })}
        <MappingRow
          title="Free trials"
          detail="The panel package a free-trial order gets, with its own length"
          error={errors.trial?.message}
          current={initial.trial}
          known={view.packages}
          emptyLabel={sandbox ? "Automatic: the sandbox trial" : "Not chosen: trials wait for you"}
          options={trials.map((p) => ({ value: p.id, label: panelPackageText(p, p.is_trial) }))}
          register={register("trial")}
        />
      </ul>
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:items-center sm:justify-end">
        {isDirty ? <p className="text-sm text-ink-muted">Unsaved changes</p> : null}
        <Button type="submit" disabled={!isDirty || isSubmitting}>
          {isSubmitting ? "Saving..." : "Save mapping"}
        </Button>
      </div>
    </form>
  );
}

function MappingRow({
  title,
  detail,
  error,
  current,
  known,
  emptyLabel,
  options,
  register,
  bouquets,
}: {
  title: string;
  detail: string;
  error?: string;
  current: string;
  known: PanelPackage[];
  emptyLabel: string;
  options: { value: string; label: string }[];
  register: UseFormRegisterReturn;
  bouquets?: { options: string[]; error?: string; register: UseFormRegisterReturn };
}) {
  const id = useId();
  const bouquetsId = useId();
  // A saved choice the panel no longer lists (or could not list) stays choosable, marked.
  const missing = current && !known.some((p) => p.id === current);
  return (
    <li className="grid gap-2 p-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)] sm:items-center sm:gap-4 sm:p-4">
      <label htmlFor={id} className="flex min-w-0 flex-col">
        <span className="font-medium text-ink">{title}</span>
        <span className="text-xs text-ink-subtle">{detail}</span>
      </label>
      <div className="flex min-w-0 flex-col gap-1.5">
        <Select id={id} {...fieldAria(id, { error })} {...register}>
          <option value="">{emptyLabel}</option>
          {missing ? <option value={current}>{current} (not on the panel now)</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Select>
        <FieldError id={id} error={error} />
        {bouquets?.options.length ? (
          <fieldset className="flex flex-col gap-1" {...fieldAria(bouquetsId, { error: bouquets.error })}>
            <legend className="text-xs text-ink-subtle">Bouquets (none ticked: all of them)</legend>
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {bouquets.options.map((b) => (
                <label key={b} className="flex min-h-11 items-center gap-2 text-sm text-ink">
                  <input type="checkbox" value={b} {...bouquets.register} />
                  Bouquet {b}
                </label>
              ))}
            </div>
            <FieldError id={bouquetsId} error={bouquets.error} />
          </fieldset>
        ) : null}
      </div>
    </li>
  );
}
