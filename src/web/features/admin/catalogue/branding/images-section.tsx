// /admin/images: the image registry. Each key (pwa_icon, about_company_logo, testimonial_avatar,
// footer_mascot, footer_logo, ...) points at an image; the site adds ?v={version}, so a new
// URL (or 'New version' after replacing the file at the same URL) makes browsers fetch it again.
import { Pencil, RefreshCw } from "lucide-react";
import { useState } from "react";
import { imageInputSchema, imagePatchSchema } from "@/shared/admin-schemas";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { actionsColumn, type Column } from "../../components/data-table";
import { Field } from "../../components/form-field";
import { useDeleteResource, useResourceList, useUpdateResource } from "../api/resources";
import type { AdminImage } from "../api/types";
import { DeleteAction } from "../components/delete-action";
import { FormDialog, useCatalogueForm } from "../components/form-dialog";
import { quickSave } from "../components/quick-save";
import { type Editing, ResourcePage } from "../components/resource-page";
import { RowActions } from "../components/row-actions";

const KNOWN_KEYS = ["pwa_icon", "about_company_logo", "testimonial_avatar", "footer_mascot", "footer_logo"];

export function ImagesSection() {
  const list = useResourceList<AdminImage>("images");
  const update = useUpdateResource<AdminImage>("images");
  const remove = useDeleteResource("images");
  const [editing, setEditing] = useState<Editing<AdminImage>>(null);

  const bump = (image: AdminImage) =>
    quickSave(
      () => update.mutateAsync({ id: image.id, patch: { image_url: image.image_url } }),
      { title: "New version", description: (saved) => `${image.image_key} is now version ${saved.version}: browsers fetch it again.` },
      "Version not changed",
    );

  const columns: Column<AdminImage>[] = [
    {
      id: "image_key",
      header: "Key",
      card: "title",
      sortable: true,
      cell: (i) => <span className="font-mono text-sm">{i.image_key}</span>,
    },
    {
      id: "preview",
      header: "Image",
      cell: (i) => (
        <img
          src={`${i.image_url}${i.image_url.includes("?") ? "&" : "?"}v=${i.version}`}
          alt={i.alt_text || i.image_key}
          width={48}
          height={48}
          loading="lazy"
          className="ml-auto size-12 rounded-lg bg-surface-raised object-contain md:ml-0"
        />
      ),
    },
    { id: "image_url", header: "URL", cell: (i) => <span className="line-clamp-2 max-w-xs break-all text-ink-muted">{i.image_url}</span> },
    { id: "version", header: "Version", sortable: true, className: "tabular", cell: (i) => `v${i.version}` },
    actionsColumn(
      (i) => (
        <RowActions>
          <Button variant="ghost" size="sm" onClick={() => setEditing(i)} aria-label={`Edit ${i.image_key}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <Button variant="ghost" size="sm" onClick={() => bump(i)} aria-label={`New version of ${i.image_key}`}>
            <RefreshCw aria-hidden="true" />
            New version
          </Button>
          <DeleteAction
            what={`the image ${i.image_key}`}
            description="The site shows its built-in image instead."
            onDelete={() => remove.mutateAsync(i.id)}
          />
        </RowActions>
      ),
      "text-right",
    ),
  ];

  return (
    <ResourcePage
      title="Images"
      description="The logo, mascot and other pictures the site shows, by key. Replaced the file at the same URL? Use New version."
      newLabel="New image"
      caption="Images"
      emptyMessage="No images registered: the site shows its built-in images."
      list={list}
      columns={columns}
      editing={editing}
      onEdit={setEditing}
      form={(image, onDone) => <ImageForm image={image} onDone={onDone} />}
    />
  );
}

function ImageForm({ image, onDone }: { image?: AdminImage; onDone: () => void }) {
  const { register, values, errors, ...form } = useCatalogueForm({
    resource: "images",
    id: image?.id,
    initial: { image_key: image?.image_key ?? "", image_url: image?.image_url ?? "", alt_text: image?.alt_text ?? "" },
    schema: image ? imagePatchSchema : imageInputSchema,
    success: image ? "Image saved" : "Image added",
    failure: image ? "Image not saved" : "Image not added",
    description: ({ image_url }) =>
      image && image_url !== image.image_url ? "A new URL is a new version: browsers fetch it again." : undefined,
    onDone,
  });

  return (
    <FormDialog form={form} title={image ? `Edit ${image.image_key}` : "New image"}>
      <Field label="Key" required error={errors.image_key} hint={`Keys the site reads: ${KNOWN_KEYS.join(", ")}`}>
        {(control) => (
          <>
            <Input
              {...control}
              list="image-keys"
              {...register("image_key")}
              className="font-mono"
              autoCapitalize="none"
              spellCheck={false}
            />
            <datalist id="image-keys">
              {KNOWN_KEYS.map((k) => (
                <option key={k} value={k} />
              ))}
            </datalist>
          </>
        )}
      </Field>
      <Field label="Image URL" required error={errors.image_url} hint="https://... or a path on this site such as /images/logo.svg">
        {(control) => <Input {...control} {...register("image_url")} inputMode="url" />}
      </Field>
      {values.image_url.trim() && /^(https?:\/\/|\/(?!\/))/.test(values.image_url.trim()) ? (
        <img
          src={values.image_url.trim()}
          alt="Preview"
          className="max-h-40 w-auto self-start rounded-lg bg-surface-raised object-contain p-2"
        />
      ) : null}
      <Field label="Alt text" error={errors.alt_text} hint="What the picture shows, for screen readers">
        {(control) => <Input {...control} {...register("alt_text")} />}
      </Field>
    </FormDialog>
  );
}
