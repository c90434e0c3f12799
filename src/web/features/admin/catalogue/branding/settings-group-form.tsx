// One group of site settings as a form; saving sends each changed key (POST /api/admin/settings
// upserts by key, so a key missing from the database is created).
import { zodResolver } from "@hookform/resolvers/zod";
import { useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { settingInputSchema } from "@/shared/admin-schemas";
import { isPlaceholder } from "@/shared/constants";
import { lifecycleSettingError } from "@/shared/lifecycle";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { ApiError } from "@/web/lib/api";
import { toast } from "@/web/lib/toast";
import { Field, FormError } from "../../components/form-field";
import { useSaveSetting } from "../api/save-setting";
import type { AdminSetting } from "../api/types";
import type { SettingGroup } from "./setting-groups";

type SettingValues = Record<string, string>;

/** Shown in a field whose stored value is still the seed's placeholder (the field itself is empty). */
export const NOT_FILLED_IN = "Not filled in yet";

/**
 * The group's values, each changed one checked as the server will: the shared settingInputSchema,
 * then the ranges of the settings the subscription lifecycle reads, then the group's own check.
 */
function groupSchema(group: SettingGroup, saved: () => SettingValues) {
  return z.record(z.string(), z.string()).superRefine((values, ctx) => {
    for (const s of group.settings) {
      const value = values[s.key] ?? "";
      if (value === saved()[s.key]) continue;
      const parsed = settingInputSchema.safeParse({ key: s.key, value });
      const problem = parsed.success
        ? (lifecycleSettingError(s.key, value) ?? s.check?.(value) ?? null)
        : (parsed.error.issues[0]?.message ?? "Please check this value");
      if (problem) ctx.addIssue({ code: "custom", path: [s.key], message: problem });
    }
  });
}

export function SettingsGroupForm({
  group,
  settings,
  placeholders = {},
}: {
  group: SettingGroup;
  settings: AdminSetting[];
  /** what an empty field shows, where it is known only at run time (the alerts e-mail's default): by key, over the group's own */
  placeholders?: Record<string, string>;
}) {
  const stored = (key: string) => settings.find((s) => s.key === key);
  // A value still at the seed's "Set in Admin › Settings" shows as an empty field to fill in, not
  // as text the owner must first delete; it is only written when the owner types something.
  const seeded = (key: string) => isPlaceholder(stored(key)?.value);
  const saved = useRef<SettingValues>(
    Object.fromEntries(group.settings.map((s) => [s.key, seeded(s.key) ? "" : (stored(s.key)?.value ?? s.unsetValue ?? "")])),
  );
  const [schema] = useState(() => groupSchema(group, () => saved.current));
  const saveSetting = useSaveSetting();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SettingValues>({ resolver: zodResolver(schema), defaultValues: saved.current });

  const submit = handleSubmit(async (values) => {
    const changed = group.settings.filter((s) => values[s.key] !== saved.current[s.key]);
    if (!changed.length) {
      toast.info("Nothing to save", { description: `${group.title}: no changes.` });
      return;
    }
    let failed = false;
    for (const s of changed) {
      const value = values[s.key] ?? "";
      try {
        await saveSetting.mutateAsync({ key: s.key, value });
        saved.current = { ...saved.current, [s.key]: value };
      } catch (error) {
        failed = true;
        // the server names its own fields (value, key): the message goes beside this setting
        const message =
          error instanceof ApiError ? (error.fields.value ?? error.fields.key ?? error.message) : "Not saved. Please try again.";
        setError(s.key, { type: "server", message });
      }
    }
    if (failed) toast.error(`${group.title}: not all saved`, { description: "See the messages beside the fields." });
    else toast.success(`${group.title} saved`, { description: "The site uses the new values at once." });
  });

  return (
    <form
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-4 rounded-card border border-line bg-surface p-4 sm:p-6"
      aria-labelledby={`group-${group.id}`}
    >
      <div className="flex flex-col gap-1">
        <h2 id={`group-${group.id}`} className="text-lg font-semibold text-ink">
          {group.title}
        </h2>
        <p className="text-sm text-ink-muted">{group.description}</p>
      </div>
      <FormError message={errors.root?.server?.message} />
      <div className="grid gap-4 sm:grid-cols-2">
        {group.settings.map((s) => {
          const hint = s.hint ?? stored(s.key)?.description?.replace(/^(PLACEHOLDER|Fill in): /, "");
          return (
            <Field
              key={s.key}
              label={s.label}
              error={errors[s.key]?.message}
              hint={hint}
              className={s.kind === "long" ? "sm:col-span-2" : undefined}
            >
              {(control) =>
                s.options ? (
                  <Select {...control} {...register(s.key)}>
                    {s.options.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </Select>
                ) : s.kind === "long" ? (
                  <Textarea {...control} {...register(s.key)} rows={3} />
                ) : (
                  <Input
                    {...control}
                    {...register(s.key)}
                    type={s.kind === "email" ? "email" : "text"}
                    placeholder={placeholders[s.key] ?? s.placeholder ?? (seeded(s.key) ? NOT_FILLED_IN : undefined)}
                  />
                )
              }
            </Field>
          );
        })}
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Saving..." : "Save"}
        </Button>
      </div>
    </form>
  );
}
