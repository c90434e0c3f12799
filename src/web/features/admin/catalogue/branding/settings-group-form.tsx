// One group of site settings as a form; saving sends each changed key (POST /api/admin/settings
// upserts by key, so a key missing from the database is created).
import { type FormEvent, useState } from "react";
import { toast } from "sonner";
import { settingInputSchema } from "@/shared/admin-schemas";
import { lifecycleSettingError } from "@/shared/lifecycle";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { ApiError } from "@/web/lib/api";
import { Field, type FieldErrors, FormError } from "../../components/form-field";
import { useSaveSetting } from "../api/save-setting";
import type { AdminSetting } from "../api/types";
import type { SettingGroup } from "./setting-groups";

export function SettingsGroupForm({ group, settings }: { group: SettingGroup; settings: AdminSetting[] }) {
  const stored = (key: string) => settings.find((s) => s.key === key);
  const [initial] = useState(() => Object.fromEntries(group.settings.map((s) => [s.key, stored(s.key)?.value ?? ""])));
  const [values, setValues] = useState(initial);
  const [saved, setSaved] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const saveSetting = useSaveSetting();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const changed = group.settings.filter((s) => values[s.key] !== saved[s.key]);
    if (!changed.length) {
      toast.info("Nothing to save", { description: `${group.title}: no changes.` });
      return;
    }
    const found: FieldErrors = {};
    for (const s of changed) {
      const parsed = settingInputSchema.safeParse({ key: s.key, value: values[s.key] });
      // the settings the subscription lifecycle reads have ranges (the server checks them too)
      const problem = parsed.success
        ? (lifecycleSettingError(s.key, values[s.key]) ?? s.check?.(values[s.key]) ?? null)
        : (parsed.error.issues[0]?.message ?? "Please check this value");
      if (problem) found[s.key] = problem;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    setPending(true);
    const failed: FieldErrors = {};
    for (const s of changed) {
      try {
        await saveSetting.mutateAsync({ key: s.key, value: values[s.key] });
        setSaved((old) => ({ ...old, [s.key]: values[s.key] }));
      } catch (error) {
        failed[s.key] =
          error instanceof ApiError ? (error.fields.value ?? error.fields.key ?? error.message) : "Not saved. Please try again.";
      }
    }
    setPending(false);
    setErrors(failed);
    if (Object.keys(failed).length) toast.error(`${group.title}: not all saved`, { description: "See the messages beside the fields." });
    else toast.success(`${group.title} saved`, { description: "The site uses the new values at once." });
  };

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
      <FormError errors={errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        {group.settings.map((s) => {
          const set = (value: string) => setValues((old) => ({ ...old, [s.key]: value }));
          const hint = s.hint ?? stored(s.key)?.description?.replace(/^(PLACEHOLDER|Fill in): /, "");
          return (
            <Field
              key={s.key}
              label={s.label}
              error={errors[s.key]}
              hint={hint}
              className={s.kind === "long" ? "sm:col-span-2" : undefined}
            >
              {(control) =>
                s.kind === "long" ? (
                  <Textarea {...control} value={values[s.key]} onChange={(e) => set(e.target.value)} rows={3} />
                ) : s.kind === "yesno" ? (
                  <Select {...control} value={values[s.key]} onChange={(e) => set(e.target.value)}>
                    <option value="">Not said</option>
                    <option value="true">Yes, VAT is included</option>
                    <option value="false">No VAT (not registered, or VAT is added)</option>
                  </Select>
                ) : (
                  <Input
                    {...control}
                    value={values[s.key]}
                    onChange={(e) => set(e.target.value)}
                    type={s.kind === "email" ? "email" : "text"}
                    placeholder={s.placeholder}
                  />
                )
              }
            </Field>
          );
        })}
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving..." : "Save"}
        </Button>
      </div>
    </form>
  );
}
