import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { type ReactNode, useState } from "react";
import { type Path, useForm } from "react-hook-form";
import { z } from "zod";
import { ABOUT_ICONS, contentSchemaFor } from "@/shared/admin-schemas";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Select } from "@/web/components/ui/select";
import { Textarea } from "@/web/components/ui/textarea";
import { toast } from "@/web/lib/toast";
import { apiFieldErrors, Field, type FieldErrors, FormError, messagesByPath, useBodyResolver } from "../../components/form-field";
import { useConfirmDemo, useDemoContent } from "../api/demo-content";
import { useCreateResource, useUpdateResource } from "../api/resources";
import type { AdminContent } from "../api/types";
import { IconButton, ListEditor, moveItem } from "../components/list-editor";
import { quickSave } from "../components/quick-save";

export type ContentSectionName = "hero" | "about" | "footer";

const str = (value: unknown) => (typeof value === "string" ? value : "");
const list = (value: unknown) => (Array.isArray(value) ? value : []);
const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** `content` may be stored as a JSON string (spec §3). */
export function contentObject(value: unknown): Record<string, unknown> {
  if (typeof value === "string") {
    try {
      return record(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return record(value);
}

interface AboutFeature {
  icon: string;
  color: string;
  title: string;
  description: string;
}
interface FooterLink {
  text: string;
  kind: "id" | "url";
  target: string;
}
interface SupportLink {
  text: string;
  url: string;
}

interface Values {
  title: string;
  description: string;
  features: string[];
  cta_primary: string;
  cta_secondary: string;
  rating_text: string;
  about_features: AboutFeature[];
  links: FooterLink[];
  support_links: SupportLink[];
  disclaimer: string;
}

function formValues(row: AdminContent | undefined): Values {
  const c = contentObject(row?.content);
  return {
    title: row?.title ?? "",
    description: row?.description ?? "",
    features: list(c.features).filter((f): f is string => typeof f === "string"),
    cta_primary: str(c.cta_primary),
    cta_secondary: str(c.cta_secondary),
    rating_text: str(c.rating_text),
    about_features: list(c.features)
      .filter((f) => typeof f === "object" && f !== null)
      .map((f) => {
        const r = record(f);
        return {
          icon: str(r.icon) || "Shield",
          color: str(r.color) || str(r.colour) || "#38bdf8",
          title: str(r.title),
          description: str(r.description),
        };
      }),
    links: list(c.links).map((l) => {
      const r = record(l);
      return str(r.url) && !str(r.id)
        ? { text: str(r.text), kind: "url" as const, target: str(r.url) }
        : { text: str(r.text), kind: "id" as const, target: str(r.id) };
    }),
    support_links: list(c.support_links).map((l) => ({ text: str(record(l).text), url: str(record(l).url) })),
    disclaimer: str(c.disclaimer),
  };
}

/** The PATCH/POST body for the section: row fields plus the content the public site reads. */
export function contentBody(section: ContentSectionName, values: Values, stored: unknown): Record<string, unknown> {
  const kept = contentObject(stored);
  if (section === "hero") {
    return {
      title: values.title,
      description: values.description,
      content: {
        ...kept,
        features: values.features.map((f) => f.trim()),
        cta_primary: values.cta_primary,
        cta_secondary: values.cta_secondary,
        rating_text: values.rating_text,
      },
    };
  }
  if (section === "about") {
    return {
      title: values.title,
      description: values.description,
      content: {
        ...kept,
        features: values.about_features.map((f) => ({ icon: f.icon, color: f.color, title: f.title, description: f.description })),
      },
    };
  }
  return {
    description: values.description,
    content: {
      ...kept,
      links: values.links.map((l) => (l.kind === "url" ? { text: l.text, url: l.target } : { text: l.text, id: l.target })),
      support_links: values.support_links.map((l) => ({ text: l.text, url: l.url })),
      disclaimer: values.disclaimer,
    },
  };
}

const SECTION_TITLES: Record<ContentSectionName, string> = { hero: "Hero", about: "About", footer: "Footer" };

export function ContentForm({ section, row }: { section: ContentSectionName; row: AdminContent | undefined }) {
  const update = useUpdateResource<AdminContent>("content");
  const create = useCreateResource<AdminContent>("content");
  // The form holds what is typed; the resolver checks the content it becomes with the section's
  // shared schema, under the server's field names (content.<path>).
  const [contentSchema] = useState(() => z.object({ content: contentSchemaFor(section) }));
  const resolver = useBodyResolver<Values, Values>(
    contentSchema,
    (values) => ({ content: contentBody(section, values, row?.content).content }),
    { keep: "values" },
  );
  const {
    handleSubmit,
    watch,
    setValue,
    setError,
    formState: { errors: errorTree, isSubmitting },
  } = useForm<Values>({ resolver, defaultValues: formValues(row) });
  const values = watch();
  const { root, ...fieldTree } = errorTree;
  const errors = messagesByPath(fieldTree);
  const set: Setter = (key) => (value) => setValue(key, value as never, { shouldDirty: true });
  const failure = `${SECTION_TITLES[section]} not saved`;

  const submit = handleSubmit(
    async (checked) => {
      const body = contentBody(section, checked, row?.content);
      try {
        await (row ? update.mutateAsync({ id: row.id, patch: body }) : create.mutateAsync({ section_name: section, ...body }));
        toast.success(`${SECTION_TITLES[section]} saved`, { description: "The homepage shows it at once." });
      } catch (error) {
        // the server names fields by their place in the body ('content.links.0.url'), as the form shows them
        for (const [field, message] of Object.entries(apiFieldErrors(error) ?? {})) {
          setError(field ? (field as Path<Values>) : "root.server", { type: "server", message });
        }
        toast.error(failure, { description: error instanceof Error ? error.message : "Please try again." });
      }
    },
    () => toast.error(failure, { description: "Please check the highlighted fields." }),
  );

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-6 rounded-card border border-line bg-surface p-4 sm:p-6">
      <FormError message={root?.server?.message} />
      {section !== "footer" ? (
        <Field label="Title" error={errors.title}>
          {(control) => <Input {...control} value={values.title} onChange={(e) => set("title")(e.target.value)} />}
        </Field>
      ) : null}
      <Field label="Description" error={errors.description}>
        {(control) => <Textarea {...control} value={values.description} onChange={(e) => set("description")(e.target.value)} rows={3} />}
      </Field>
      {section === "hero" ? <HeroFields values={values} set={set} errors={errors} /> : null}
      {section === "about" ? <AboutFields features={values.about_features} onChange={set("about_features")} errors={errors} /> : null}
      {section === "footer" ? <FooterFields values={values} set={set} errors={errors} /> : null}
      <div className="flex justify-end">
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Saving..." : `Save ${SECTION_TITLES[section].toLowerCase()}`}
        </Button>
      </div>
    </form>
  );
}

type Setter = <K extends keyof Values>(key: K) => (value: Values[K]) => void;

/** The seeded rating line is a demo claim: off the site until the owner writes their own or keeps it as true. */
function DemoRatingNote() {
  const demo = useDemoContent().data?.homepage.includes("hero.rating_text") ?? false;
  const confirm = useConfirmDemo();
  if (!demo) return null;
  return (
    <div className="flex flex-col gap-2 rounded-xl border border-warn/40 bg-warn/10 px-4 py-3 text-sm text-ink" data-testid="demo-rating">
      <p>
        This line came with the demo shop and is not shown on your site, with no stars, until you write your own or keep it as true for your
        shop.
      </p>
      <Button
        type="button"
        variant="outline"
        size="sm"
        className="self-start"
        disabled={confirm.isPending}
        onClick={() =>
          quickSave(
            () => confirm.mutateAsync("homepage:hero.rating_text"),
            { title: "Rating line kept", description: "It shows under the stars on your site." },
            "Rating line not kept",
          )
        }
      >
        It is true: show it
      </Button>
    </div>
  );
}

function HeroFields({ values, set, errors }: { values: Values; set: Setter; errors: FieldErrors }) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Primary button" error={errors["content.cta_primary"]} hint="Blank: Try Free Now">
          {(control) => <Input {...control} value={values.cta_primary} onChange={(e) => set("cta_primary")(e.target.value)} />}
        </Field>
        <Field label="Secondary button" error={errors["content.cta_secondary"]} hint="Blank: Start Streaming Today">
          {(control) => <Input {...control} value={values.cta_secondary} onChange={(e) => set("cta_secondary")(e.target.value)} />}
        </Field>
      </div>
      <Field
        label="Line under the stars"
        error={errors["content.rating_text"]}
        hint="The stars show only with this line. Blank: no stars, just “No contracts · Pay in rand · Support on WhatsApp”."
      >
        {(control) => <Input {...control} value={values.rating_text} onChange={(e) => set("rating_text")(e.target.value)} />}
      </Field>
      <DemoRatingNote />
      <ListEditor
        label="Features"
        name="content.features"
        itemLabel="Feature"
        items={values.features}
        onChange={set("features")}
        errors={errors}
      />
    </>
  );
}

function Repeater<T>({
  legend,
  items,
  onChange,
  blank,
  addLabel,
  itemName,
  error,
  render,
}: {
  legend: string;
  items: T[];
  onChange: (items: T[]) => void;
  blank: T;
  addLabel: string;
  itemName: string;
  error?: string;
  render: (item: T, index: number, update: (patch: Partial<T>) => void) => ReactNode;
}) {
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-1 text-sm font-semibold tracking-wide text-ink-subtle uppercase">{legend}</legend>
      {items.map((item, index) => (
        <div key={index} className="flex flex-col gap-3 rounded-xl border border-line p-3 sm:p-4">
          <div className="flex items-center justify-between">
            <span className="text-sm font-medium text-ink">
              {itemName} {index + 1}
            </span>
            <span className="flex">
              <IconButton
                label={`Move ${itemName.toLowerCase()} ${index + 1} up`}
                disabled={index === 0}
                onClick={() => onChange(moveItem(items, index, -1))}
              >
                <ArrowUp />
              </IconButton>
              <IconButton
                label={`Move ${itemName.toLowerCase()} ${index + 1} down`}
                disabled={index === items.length - 1}
                onClick={() => onChange(moveItem(items, index, 1))}
              >
                <ArrowDown />
              </IconButton>
              <IconButton
                label={`Remove ${itemName.toLowerCase()} ${index + 1}`}
                onClick={() => onChange(items.filter((_, i) => i !== index))}
              >
                <Trash2 />
              </IconButton>
            </span>
          </div>
          {render(item, index, (patch) => onChange(items.map((old, i) => (i === index ? { ...old, ...patch } : old))))}
        </div>
      ))}
      <div>
        <Button variant="outline" size="sm" onClick={() => onChange([...items, blank])}>
          <Plus aria-hidden="true" />
          {addLabel}
        </Button>
      </div>
      {error ? <p className="text-sm text-bad">{error}</p> : null}
    </fieldset>
  );
}

function AboutFields({
  features,
  onChange,
  errors,
}: {
  features: AboutFeature[];
  onChange: (f: AboutFeature[]) => void;
  errors: FieldErrors;
}) {
  return (
    <Repeater
      legend="Feature cards"
      items={features}
      onChange={onChange}
      blank={{ icon: "Shield", color: "#38bdf8", title: "", description: "" }}
      addLabel="Add feature"
      itemName="Feature"
      error={errors["content.features"]}
      render={(f, i, update) => {
        const e = (key: string) => errors[`content.features.${i}.${key}`];
        return (
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Icon" error={e("icon")}>
              {(control) => (
                <Select {...control} value={f.icon} onChange={(ev) => update({ icon: ev.target.value })}>
                  {ABOUT_ICONS.map((icon) => (
                    <option key={icon} value={icon}>
                      {icon}
                    </option>
                  ))}
                  {(ABOUT_ICONS as readonly string[]).includes(f.icon) ? null : <option value={f.icon}>{f.icon}</option>}
                </Select>
              )}
            </Field>
            <Field label="Colour" error={e("color")} hint="A hex colour, e.g. #38bdf8">
              {(control) => (
                <span className="flex items-center gap-2">
                  <input
                    type="color"
                    aria-label={`Pick the colour of feature ${i + 1}`}
                    value={/^#[0-9a-f]{6}$/i.test(f.color) ? f.color : "#38bdf8"}
                    onChange={(ev) => update({ color: ev.target.value })}
                    className="h-12 w-12 shrink-0 cursor-pointer rounded-xl border border-line bg-surface-raised p-1"
                  />
                  <Input {...control} value={f.color} onChange={(ev) => update({ color: ev.target.value })} className="min-w-0 flex-1" />
                </span>
              )}
            </Field>
            <Field label="Title" error={e("title")} className="sm:col-span-2">
              {(control) => <Input {...control} value={f.title} onChange={(ev) => update({ title: ev.target.value })} />}
            </Field>
            <Field label="Description" error={e("description")} className="sm:col-span-2">
              {(control) => (
                <Textarea {...control} value={f.description} onChange={(ev) => update({ description: ev.target.value })} rows={2} />
              )}
            </Field>
          </div>
        );
      }}
    />
  );
}

const LANDING_SECTIONS = ["hero", "about", "pricing", "how-to-use", "testimonials", "order"];

function FooterFields({ values, set, errors }: { values: Values; set: Setter; errors: FieldErrors }) {
  return (
    <>
      <Repeater
        legend="Quick links"
        items={values.links}
        onChange={set("links")}
        blank={{ text: "", kind: "id", target: "" } satisfies FooterLink as FooterLink}
        addLabel="Add quick link"
        itemName="Quick link"
        error={errors["content.links"]}
        render={(l, i, update) => {
          const e = (key: string) => errors[`content.links.${i}.${key}`];
          return (
            <div className="grid gap-3 sm:grid-cols-3">
              <Field label="Text" error={e("text")}>
                {(control) => <Input {...control} value={l.text} onChange={(ev) => update({ text: ev.target.value })} />}
              </Field>
              <Field label="Goes to">
                {(control) => (
                  <Select
                    {...control}
                    value={l.kind}
                    onChange={(ev) => update({ kind: ev.target.value as FooterLink["kind"], target: "" })}
                  >
                    <option value="id">A homepage section</option>
                    <option value="url">A page or web address</option>
                  </Select>
                )}
              </Field>
              {l.kind === "id" ? (
                <Field label="Section id" error={e("id") ?? e("url")} hint={`e.g. ${LANDING_SECTIONS.slice(2, 5).join(", ")}`}>
                  {(control) => (
                    <>
                      <Input
                        {...control}
                        list="landing-section-ids"
                        value={l.target}
                        onChange={(ev) => update({ target: ev.target.value })}
                      />
                      <datalist id="landing-section-ids">
                        {LANDING_SECTIONS.map((id) => (
                          <option key={id} value={id} />
                        ))}
                      </datalist>
                    </>
                  )}
                </Field>
              ) : (
                <Field label="URL" error={e("url")} hint="https://... or /page">
                  {(control) => <Input {...control} value={l.target} onChange={(ev) => update({ target: ev.target.value })} />}
                </Field>
              )}
            </div>
          );
        }}
      />
      <Repeater
        legend="Support links"
        items={values.support_links}
        onChange={set("support_links")}
        blank={{ text: "", url: "" }}
        addLabel="Add support link"
        itemName="Support link"
        error={errors["content.support_links"]}
        render={(l, i, update) => (
          <div className="grid gap-3 sm:grid-cols-2">
            <Field label="Text" error={errors[`content.support_links.${i}.text`]}>
              {(control) => <Input {...control} value={l.text} onChange={(ev) => update({ text: ev.target.value })} />}
            </Field>
            <Field label="URL" error={errors[`content.support_links.${i}.url`]} hint="https://... or /page">
              {(control) => <Input {...control} value={l.url} onChange={(ev) => update({ url: ev.target.value })} />}
            </Field>
          </div>
        )}
      />
      <Field label="Disclaimer" error={errors["content.disclaimer"]} hint="The reseller disclaimer at the foot of every page">
        {(control) => <Textarea {...control} value={values.disclaimer} onChange={(e) => set("disclaimer")(e.target.value)} rows={3} />}
      </Field>
    </>
  );
}
