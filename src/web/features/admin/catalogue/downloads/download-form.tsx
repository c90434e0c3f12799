// 'New app' / 'Edit app': every field of a download (spec §3), the installation guide with a
// preview of how customers receive it, and the QR code of the download.
import { useState } from "react";
import { adminDownloadInputSchema, adminDownloadPatchSchema } from "@/shared/admin-schemas";
import { DEVICES } from "@/shared/options";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Textarea } from "@/web/components/ui/textarea";
import { Field, type FieldErrors } from "../../components/form-field";
import type { AdminDownload } from "../api/types";
import { CheckboxField } from "../components/checkbox-field";
import { FormDialog, sortOrderBody, useCatalogueForm } from "../components/form-dialog";
import { OrderField } from "../components/quick-save";
import { QrCode } from "./qr-code";

interface DownloadFormValues extends Record<string, unknown> {
  name: string;
  description: string;
  download_url: string;
  file_type: string;
  file_size: string;
  version: string;
  device_compatibility: string[];
  installation_guide: string;
  qr_code_data: string;
  logo_url: string;
  sort_order: string;
  is_featured: boolean;
  is_active: boolean;
}

function formValues(d?: AdminDownload): DownloadFormValues {
  return {
    name: d?.name ?? "",
    description: d?.description ?? "",
    download_url: d?.download_url ?? "",
    file_type: d?.file_type ?? "",
    file_size: d?.file_size ?? "",
    version: d?.version ?? "",
    device_compatibility: d?.device_compatibility ?? [],
    installation_guide: d?.installation_guide ?? "",
    // blank when it simply follows the download URL
    qr_code_data: d?.qr_code_data && d.qr_code_data !== d.download_url ? d.qr_code_data : "",
    logo_url: d?.logo_url ?? "",
    sort_order: String(d?.sort_order ?? 0),
    is_featured: d?.is_featured ?? false,
    is_active: d?.is_active ?? true,
  };
}

export function DownloadFormDialog({ app, onDone }: { app?: AdminDownload; onDone: () => void }) {
  const { register, values, set, errors, ...form } = useCatalogueForm({
    resource: "downloads",
    id: app?.id,
    initial: formValues(app),
    schema: app ? adminDownloadPatchSchema : adminDownloadInputSchema,
    toBody: sortOrderBody,
    success: app ? "App saved" : "App created",
    failure: app ? "App not saved" : "App not created",
    description: ({ name }) => (app ? `${name.trim()} is up to date on the downloads page.` : undefined),
    onDone,
  });
  const toggleDevice = (device: string, on: boolean) =>
    set("device_compatibility")(on ? [...values.device_compatibility, device] : values.device_compatibility.filter((d) => d !== device));

  return (
    <FormDialog
      form={form}
      title={app ? `Edit ${app.name}` : "New app"}
      description="Apps show on the downloads page and in How to use; featured apps come first."
      submitLabel={app ? "Save changes" : "Create app"}
      wide
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="App name" required error={errors.name}>
          {(control) => <Input {...control} {...register("name")} />}
        </Field>
        <Field label="Version" error={errors.version}>
          {(control) => <Input {...control} {...register("version")} placeholder="5.0" />}
        </Field>
        <Field
          label="Download URL"
          error={errors.download_url}
          className="sm:col-span-2"
          hint="https://... or a path on this site such as /apps/player.apk"
        >
          {(control) => <Input {...control} {...register("download_url")} type="url" inputMode="url" placeholder="https://" />}
        </Field>
        <Field label="File type" error={errors.file_type}>
          {(control) => <Input {...control} {...register("file_type")} placeholder="APK / Play Store" />}
        </Field>
        <Field label="File size" error={errors.file_size}>
          {(control) => <Input {...control} {...register("file_size")} placeholder="About 40 MB" />}
        </Field>
        <Field label="Logo URL" error={errors.logo_url}>
          {(control) => <Input {...control} {...register("logo_url")} placeholder="/images/apps/player.svg" />}
        </Field>
        <OrderField error={errors.sort_order} registration={register("sort_order")} />
      </div>
      <Field label="Description" error={errors.description}>
        {(control) => <Textarea {...control} {...register("description")} rows={3} />}
      </Field>
      <DeviceChoices selected={values.device_compatibility} onToggle={toggleDevice} errors={errors} />
      <GuideEditor value={values.installation_guide} onChange={set("installation_guide")} error={errors.installation_guide} />
      <section className="flex flex-col gap-3 rounded-xl border border-line p-4" aria-label="QR code">
        <h3 className="text-sm font-semibold text-ink">QR code</h3>
        <QrCode data={values.qr_code_data || values.download_url} name={values.name} />
        <Field
          label="QR code data"
          error={errors.qr_code_data}
          hint="Blank: the QR code opens the download URL. Or type other text, e.g. a Downloader code."
        >
          {(control) => <Input {...control} {...register("qr_code_data")} />}
        </Field>
      </section>
      <div className="grid gap-1 sm:grid-cols-2">
        <CheckboxField label="Active (shown on the site)" checked={values.is_active} onChange={set("is_active")} error={errors.is_active} />
        <CheckboxField
          label="Featured (shown first, large)"
          checked={values.is_featured}
          onChange={set("is_featured")}
          error={errors.is_featured}
        />
      </div>
      {app ? <p className="text-sm text-ink-muted">Downloaded {app.download_count.toLocaleString("en-ZA")} times.</p> : null}
    </FormDialog>
  );
}

function DeviceChoices({
  selected,
  onToggle,
  errors,
}: {
  selected: string[];
  onToggle: (device: string, on: boolean) => void;
  errors: FieldErrors;
}) {
  const error = errors.device_compatibility ?? Object.entries(errors).find(([key]) => key.startsWith("device_compatibility."))?.[1];
  const unknown = selected.filter((d) => !DEVICES.some((device) => device.value === d));
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium text-ink">Works on</legend>
      <div className="grid gap-x-4 sm:grid-cols-2">
        {[...DEVICES.map((d) => ({ value: d.value as string, label: d.label })), ...unknown.map((d) => ({ value: d, label: d }))].map(
          (device) => (
            <CheckboxField
              key={device.value}
              label={device.label}
              checked={selected.includes(device.value)}
              onChange={(on) => onToggle(device.value, on)}
            />
          ),
        )}
      </div>
      {error ? <p className="text-sm text-bad">{error}</p> : null}
    </fieldset>
  );
}

/** The guide as typed, and as the customer reads it in their WhatsApp or e-mail. */
function GuideEditor({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  const [preview, setPreview] = useState(false);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium text-ink">Installation guide</span>
        <fieldset aria-label="Installation guide view" className="flex gap-1">
          <Button variant={preview ? "ghost" : "secondary"} size="sm" aria-pressed={!preview} onClick={() => setPreview(false)}>
            Write
          </Button>
          <Button variant={preview ? "secondary" : "ghost"} size="sm" aria-pressed={preview} onClick={() => setPreview(true)}>
            Preview
          </Button>
        </fieldset>
      </div>
      {preview ? (
        <div
          className="min-h-32 rounded-xl border border-line bg-surface-raised px-4 py-3 text-sm whitespace-pre-wrap text-ink"
          data-testid="guide-preview"
        >
          {value.trim() || <span className="text-ink-subtle">No guide yet: customers can't be sent instructions for this app.</span>}
        </div>
      ) : (
        <Field
          label={<span className="sr-only">Installation guide text</span>}
          error={error}
          hint="One step per line, e.g. 1. Open the Play Store. Sent to customers on WhatsApp or by e-mail."
        >
          {(control) => <Textarea {...control} value={value} onChange={(e) => onChange(e.target.value)} rows={8} />}
        </Field>
      )}
    </div>
  );
}
