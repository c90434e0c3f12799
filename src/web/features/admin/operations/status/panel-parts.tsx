// What the status section's panels (components, incidents, scheduled maintenance) share: the
// panel's heading with its one button, and for incidents and maintenance the components they
// affect, named in the table and chosen in the editor.
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "@/web/components/ui/button";
import type { FieldErrors } from "../../components/form-field";
import { useResourceList } from "../api/get-resource-list";
import { CheckField } from "../components/fields";
import { type AdminComponent, componentsResource } from "./status-types";

/** A panel's heading (`id` labels its section) and the button that adds a row. */
export function PanelHeader({
  id,
  title,
  icon: Icon,
  action,
  onAction,
}: {
  id: string;
  title: string;
  icon: LucideIcon;
  action: string;
  onAction: () => void;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h2 id={id} className="text-lg font-bold text-ink">
        {title}
      </h2>
      <Button variant="outline" size="sm" onClick={onAction}>
        <Icon aria-hidden="true" />
        {action}
      </Button>
    </div>
  );
}

/** The status page's components, and a key's name among them (the key itself until they load). */
export function useComponents() {
  const components = useResourceList<AdminComponent>(componentsResource);
  const nameOf = (key: string) => components.data?.find((c) => c.key === key)?.name ?? key;
  return { components: components.data, nameOf };
}

/** A row's title cell, with the names of the components it affects under it. */
export function TitleWithComponents({ title, keys, nameOf }: { title: ReactNode; keys: string[]; nameOf: (key: string) => string }) {
  return (
    <span className="flex flex-col">
      <span>{title}</span>
      {keys.length ? <span className="text-xs font-normal text-ink-subtle">{keys.map(nameOf).join(", ")}</span> : null}
    </span>
  );
}

/** The editor's 'Affected components' checkboxes over its `component_keys` (nothing while there are no components). */
export function AffectedComponentsField({
  components,
  values,
  set,
  errors,
}: {
  components: AdminComponent[] | undefined;
  values: { component_keys: string[] };
  set: (key: "component_keys", keys: string[]) => void;
  errors: FieldErrors;
}) {
  if (!components?.length) return null;
  const keys = values.component_keys;
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium text-ink">Affected components</legend>
      <div className="grid gap-x-4 sm:grid-cols-2">
        {components.map((c) => (
          <CheckField
            key={c.key}
            label={c.name}
            checked={keys.includes(c.key)}
            onChange={(on) => set("component_keys", on ? [...keys, c.key] : keys.filter((k) => k !== c.key))}
          />
        ))}
      </div>
      {errors.component_keys ? <p className="text-sm text-bad">{errors.component_keys}</p> : null}
    </fieldset>
  );
}
