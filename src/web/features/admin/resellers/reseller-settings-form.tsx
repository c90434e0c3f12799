// The resellers settings (issue 45): the panel's member group sub-resellers are made in, and what
// partners pay for credits — a price per credit and volume tiers (from N credits, R each).
import { zodResolver } from "@hookform/resolvers/zod";
import { Plus, Trash2 } from "lucide-react";
import { useEffect } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { resellerSettingsFormSchema, type ResellerSettingsForm as SettingsValues } from "@/shared/reseller-schemas";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { toast } from "@/web/lib/toast";
import { Field, FormError, showServerErrors } from "../components/form-field";
import { useResellerSettings, useSaveResellerSettings } from "./api/reseller-settings";

export function ResellerSettingsForm() {
  const settings = useResellerSettings();
  const save = useSaveResellerSettings();
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SettingsValues>({
    resolver: zodResolver(resellerSettingsFormSchema),
    defaultValues: { member_group_id: "", price_per_credit: "", tiers: [] },
  });
  const tiers = useFieldArray({ control, name: "tiers" });
  useEffect(() => {
    if (!settings.data) return;
    reset({
      member_group_id: settings.data.member_group_id,
      price_per_credit: settings.data.pricing ? String(settings.data.pricing.price_per_credit) : "",
      tiers: (settings.data.pricing?.tiers ?? []).map((t) => ({
        min_credits: String(t.min_credits),
        price_per_credit: String(t.price_per_credit),
      })),
    });
  }, [settings.data, reset]);

  const onSubmit = handleSubmit(async (values) => {
    if (!values.price_per_credit && values.tiers.length > 0) {
      setError("price_per_credit", { message: "Enter the price per credit before its tiers" });
      return;
    }
    try {
      await save.mutateAsync({
        memberGroup: values.member_group_id && values.member_group_id !== settings.data?.member_group_id ? values.member_group_id : null,
        pricing: values.price_per_credit
          ? {
              price_per_credit: Number(values.price_per_credit),
              tiers: values.tiers.map((t) => ({ min_credits: Number(t.min_credits), price_per_credit: Number(t.price_per_credit) })),
            }
          : null,
      });
      toast.success("Partner settings saved");
    } catch (error) {
      showServerErrors(error, setError, ["member_group_id", "price_per_credit", "tiers"], "Not saved. Please try again.");
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Partner settings" className="flex flex-col gap-4 rounded-2xl border border-line p-4">
      <h2 className="text-lg font-semibold text-ink">Partner settings</h2>
      <FormError message={errors.root?.server?.message} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Panel member group"
          error={errors.member_group_id?.message}
          hint="The group's id on your panel that new partners are made in."
        >
          {(c) => <Input {...c} {...register("member_group_id")} inputMode="numeric" autoComplete="off" />}
        </Field>
        <Field
          label="Price per credit (R)"
          error={errors.price_per_credit?.message}
          hint="What partners pay you for one credit in the shop."
        >
          {(c) => <Input {...c} {...register("price_per_credit")} inputMode="decimal" autoComplete="off" />}
        </Field>
      </div>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm font-semibold text-ink">Volume tiers</legend>
        {tiers.fields.length === 0 ? <p className="text-sm text-ink-muted">No tiers: every credit costs the price above.</p> : null}
        {tiers.fields.map((tier, i) => (
          <div key={tier.id} className="flex flex-wrap items-end gap-2">
            <Field label={`Tier ${i + 1}: from (credits)`} error={errors.tiers?.[i]?.min_credits?.message}>
              {(c) => <Input {...c} {...register(`tiers.${i}.min_credits`)} inputMode="numeric" className="w-28" autoComplete="off" />}
            </Field>
            <Field label="R per credit" error={errors.tiers?.[i]?.price_per_credit?.message}>
              {(c) => <Input {...c} {...register(`tiers.${i}.price_per_credit`)} inputMode="decimal" className="w-28" autoComplete="off" />}
            </Field>
            <Button type="button" size="sm" variant="outline" onClick={() => tiers.remove(i)} aria-label={`Remove tier ${i + 1}`}>
              <Trash2 aria-hidden="true" />
            </Button>
          </div>
        ))}
        <div>
          <Button type="button" size="sm" variant="outline" onClick={() => tiers.append({ min_credits: "", price_per_credit: "" })}>
            <Plus aria-hidden="true" />
            Add a tier
          </Button>
        </div>
      </fieldset>
      <div>
        <Button type="submit" size="sm" disabled={isSubmitting}>
          {isSubmitting ? "Saving..." : "Save settings"}
        </Button>
      </div>
    </form>
  );
}
