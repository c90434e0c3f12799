// Which panel package each of our packages buys, and which one free trials are made on. The
// panel checks the choice on save; its refusals land on the row they name ("packages.<id>",
// "trial"). In sandbox mode an unmapped package uses the sandbox package of the same length.
// Where the chosen panel package has bouquets, the owner may tick the ones the package includes
// (none ticked: all of them); lines are made and extended with that choice.
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useId, useMemo, useState } from "react";
import { type Resolver, type UseFormRegisterReturn, useForm } from "react-hook-form";
import { z } from "zod";
import type { AdminPanelView } from "@/shared/business-schemas";
import { FieldError, fieldAria } from "@/web/components/form-field";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { toast } from "@/web/lib/toast";
import type { AdminPackage } from "../catalogue/api/types";
import { FormError, toastServerErrors } from "../components/form-field";
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
  const screens = (p.max_connections ?? 1) > 1 ? ` · ${p.max_connections} screens` : "";
  return `${p.name} (${length}${screens}${credits})`;
}

type Option = { value: string; label: string; group: string; order: number };

/** A panel package as a choice, grouped by its length (trials apart), in length then screens order. */
function optionOf(p: PanelPackage, trial: boolean): Option {
  const hours = (n: number, unit: string) => n * ({ months: 730, days: 24, hours: 1 }[unit] ?? 1);
  return trial
    ? { value: p.id, label: panelPackageText(p, true), group: "Trials", order: hours(p.trial_duration, p.trial_duration_in) }
    : {
        value: p.id,
        label: panelPackageText(p, false),
        group: duration(p.official_duration, p.official_duration_in),
        order: hours(p.official_duration, p.official_duration_in) * 100 + (p.max_connections ?? 1),
      };
}

/** Options in groups, each group in order; `find` keeps those whose words start with its words (the chosen one always stays). */
function grouped(options: Option[], find: string, keep: string): [string, Option[]][] {
  // each word the owner types starts a word of the package's ("2" finds "2 screens", not "12 months")
  const words = find.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (label: string) => {
    const own = label.toLowerCase().split(/[^\p{L}\p{N}]+/u);
    return words.every((w) => own.some((word) => word.startsWith(w)));
  };
  const shown = options.filter((o) => o.value === keep || matches(o.label));
  const groups = new Map<string, Option[]>();
  for (const o of [...shown].sort((a, b) => a.order - b.order || a.label.localeCompare(b.label))) {
    groups.set(o.group, [...(groups.get(o.group) ?? []), o]);
  }
  return [...groups];
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
    setValue,
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
      toastServerErrors(error, setError, known, "Mapping not saved");
    }
  });

  const paid = view.packages.filter((p) => !p.is_trial).map((p) => optionOf(p, false));
  const trials = [...view.packages].sort((a, b) => Number(b.is_trial) - Number(a.is_trial)).map((p) => optionOf(p, p.is_trial));
  const sandbox = view.mode === "sandbox";
  const findId = useId();
  const [find, setFind] = useState("");

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label="Package mapping">
      <FormError message={errors.root?.server?.message} />
      {!view.connected ? (
        <p className="rounded-xl border border-warn/40 bg-warn/10 px-4 py-3 text-sm text-ink-muted">
          The panel's packages can't be read right now, so only the saved choices are listed. You can still clear one.
        </p>
      ) : null}
      {view.packages.length > 8 ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={findId} className="text-sm font-medium text-ink">
            Find a panel package
          </label>
          <Input
            id={findId}
            type="search"
            value={find}
            onChange={(event) => setFind(event.target.value)}
            placeholder="e.g. 3 months 2 screens, sports"
            aria-describedby={`${findId}-hint`}
          />
          <p id={`${findId}-hint`} className="text-xs text-ink-subtle">
            The panel lists {view.packages.length} packages, grouped by length. Words here narrow every list below; your saved choices stay.
          </p>
        </div>
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
              options={grouped(paid, find, watch(`packages.${pkg.id}`) ?? "")}
              register={register(`packages.${pkg.id}`)}
              bouquets={{
                options: bouquetsOf(watch(`packages.${pkg.id}`)),
                error: (errors.bouquets?.[pkg.id] as { message?: string } | undefined)?.message,
                register: register(`bouquets.${pkg.id}`),
                chosen: watch(`bouquets.${pkg.id}`) ?? [],
                set: (ids) => setValue(`bouquets.${pkg.id}`, ids, { shouldDirty: true }),
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
          options={grouped(trials, find, watch("trial") ?? "")}
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
  options: [string, Option[]][];
  register: UseFormRegisterReturn;
  bouquets?: { options: string[]; error?: string; register: UseFormRegisterReturn; chosen: string[]; set: (ids: string[]) => void };
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
          {options.map(([group, list]) => (
            <optgroup key={group} label={group}>
              {list.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </optgroup>
          ))}
        </Select>
        <FieldError id={id} error={error} />
        {bouquets?.options.length ? <BouquetChoice id={bouquetsId} {...bouquets} /> : null}
      </div>
    </li>
  );
}

/**
 * The bouquets a package includes: folded away with a count (a panel package may have sixty),
 * two columns even at 390 px, with "All" and "None" for the whole list.
 */
function BouquetChoice({
  id,
  options,
  error,
  register,
  chosen,
  set,
}: {
  id: string;
  options: string[];
  error?: string;
  register: UseFormRegisterReturn;
  chosen: string[];
  set: (ids: string[]) => void;
}) {
  const ticked = chosen.filter((b) => options.includes(b)).length;
  const summary = ticked === 0 ? `Bouquets: all ${options.length} (none ticked)` : `Bouquets: ${ticked} of ${options.length} ticked`;
  return (
    <details className="rounded-lg border border-line" open={options.length <= 8 || Boolean(error)}>
      <summary className="flex min-h-11 cursor-pointer items-center px-3 text-sm text-ink">{summary}</summary>
      <fieldset className="flex flex-col gap-2 border-t border-line p-3" {...fieldAria(id, { error })}>
        <legend className="sr-only">Bouquets (none ticked: all of them)</legend>
        <p className="text-xs text-ink-subtle">Bouquets (none ticked: all of them)</p>
        {options.length > 8 ? (
          <div className="flex gap-2">
            <Button type="button" size="sm" variant="outline" onClick={() => set(options)}>
              Tick all
            </Button>
            <Button type="button" size="sm" variant="outline" onClick={() => set([])}>
              Untick all
            </Button>
          </div>
        ) : null}
        <div className="grid max-h-72 grid-cols-2 gap-x-4 overflow-y-auto sm:grid-cols-3">
          {options.map((b) => (
            <label key={b} className="flex min-h-11 items-center gap-2 text-sm text-ink">
              <input type="checkbox" value={b} {...register} />
              Bouquet {b}
            </label>
          ))}
        </div>
        <FieldError id={id} error={error} />
      </fieldset>
    </details>
  );
}
