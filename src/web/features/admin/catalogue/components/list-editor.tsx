// A list of short texts (a package's features, the hero's features): type, add, reorder, remove.
// Each item shows its own message ('<name>.<index>') and the list its own ('<name>').
import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { FieldError } from "@/web/components/form-field";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import type { FieldErrors } from "../../components/form-field";

export function moveItem<T>(list: readonly T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (target < 0 || target >= list.length) return [...list];
  const next = [...list];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}

export function ListEditor({
  label,
  name,
  items,
  onChange,
  errors,
  placeholder,
  itemLabel = "Item",
}: {
  label: string;
  /** the field's name in error paths, e.g. 'features' or 'content.features' */
  name: string;
  items: string[];
  onChange: (items: string[]) => void;
  errors: FieldErrors;
  placeholder?: string;
  itemLabel?: string;
}) {
  const id = useId();
  const [draft, setDraft] = useState("");
  const add = () => {
    const text = draft.trim();
    if (!text) return;
    onChange([...items, text]);
    setDraft("");
  };
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={errors[name] ? `${id}-error` : undefined}>
      <legend className="mb-1 text-sm font-medium text-ink">{label}</legend>
      {items.length === 0 ? <p className="text-sm text-ink-subtle">None yet.</p> : null}
      <ol className="flex flex-col gap-2">
        {items.map((item, index) => {
          const error = errors[`${name}.${index}`];
          return (
            <li key={index} className="flex flex-col gap-1">
              <div className="flex items-center gap-1">
                <Input
                  aria-label={`${itemLabel} ${index + 1}`}
                  value={item}
                  aria-invalid={error ? true : undefined}
                  onChange={(event) => onChange(items.map((old, i) => (i === index ? event.target.value : old)))}
                  className="min-w-0 flex-1"
                />
                <IconButton
                  label={`Move ${itemLabel.toLowerCase()} ${index + 1} up`}
                  disabled={index === 0}
                  onClick={() => onChange(moveItem(items, index, -1))}
                >
                  <ArrowUp />
                </IconButton>
                <IconButton
                  label={`Move ${itemLabel.toLowerCase()} ${index + 1} down`}
                  disabled={index === items.length - 1}
                  onClick={() => onChange(moveItem(items, index, 1))}
                >
                  <ArrowDown />
                </IconButton>
                <IconButton
                  label={`Remove ${itemLabel.toLowerCase()} ${index + 1}`}
                  onClick={() => onChange(items.filter((_, i) => i !== index))}
                >
                  <Trash2 />
                </IconButton>
              </div>
              {error ? <p className="text-sm text-bad">{error}</p> : null}
            </li>
          );
        })}
      </ol>
      <div className="flex items-center gap-2">
        <Input
          aria-label={`New ${itemLabel.toLowerCase()}`}
          value={draft}
          placeholder={placeholder}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              add();
            }
          }}
          className="min-w-0 flex-1"
        />
        <Button variant="outline" size="sm" onClick={add} disabled={!draft.trim()}>
          <Plus aria-hidden="true" />
          Add
        </Button>
      </div>
      <FieldError id={id} error={errors[name]} />
    </fieldset>
  );
}

export function IconButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Button variant="ghost" size="sm" className="w-11 shrink-0 px-0" aria-label={label} title={label} onClick={onClick} disabled={disabled}>
      {children}
    </Button>
  );
}
