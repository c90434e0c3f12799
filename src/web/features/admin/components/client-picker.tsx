// Finds a client by name, username, e-mail or phone (the clients list's own search) and picks one.
import { Check, Search } from "lucide-react";
import { useEffect, useId, useState } from "react";
import type { AdminClient } from "@/shared/business-schemas";
import { FieldError } from "@/web/components/form-field";
import { Input } from "@/web/components/ui/input";
import { cn } from "@/web/lib/cn";
import { useClients } from "../clients/api/get-clients";
import { phone } from "./format";

export interface ClientPickerProps {
  label: string;
  value: AdminClient | null;
  onChange: (client: AdminClient | null) => void;
  /** what to search for first (e.g. the payment's e-mail) */
  initialSearch?: string;
  error?: string;
}

export function ClientPicker({ label, value, onChange, initialSearch = "", error }: ClientPickerProps) {
  const id = useId();
  const [text, setText] = useState(initialSearch);
  const [search, setSearch] = useState(initialSearch);
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const params = new URLSearchParams({ pageSize: "6", sort: "full_name", dir: "asc" });
  if (search) params.set("q", search);
  const { data, isPending, isFetching } = useClients(params.toString());
  const results = data?.data ?? [];

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      <div className="relative">
        <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-4 size-4 -translate-y-1/2 text-ink-subtle" />
        <Input
          id={id}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="Name, username, email or phone"
          className="pl-11"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoComplete="off"
        />
      </div>
      <FieldError id={id} error={error} />
      <ul aria-label="Matching clients" aria-busy={isFetching || undefined} className="flex max-h-64 flex-col gap-1 overflow-y-auto">
        {isPending ? <li className="px-3 py-2 text-sm text-ink-muted">Searching...</li> : null}
        {!isPending && results.length === 0 ? <li className="px-3 py-2 text-sm text-ink-muted">No client matches “{search}”.</li> : null}
        {results.map((client) => {
          const selected = value?.id === client.id;
          return (
            <li key={client.id}>
              <button
                type="button"
                aria-pressed={selected}
                onClick={() => onChange(selected ? null : client)}
                className={cn(
                  "flex min-h-12 w-full items-center justify-between gap-3 rounded-xl border px-3 py-2 text-left text-sm",
                  selected ? "border-accent bg-accent/10" : "border-line hover:bg-surface-raised",
                )}
              >
                <span className="flex min-w-0 flex-col">
                  <span className="truncate font-medium text-ink">{client.full_name}</span>
                  <span className="truncate text-xs text-ink-subtle">
                    {client.username} · {client.email || phone(client.whatsapp)}
                  </span>
                </span>
                {selected ? <Check aria-hidden="true" className="size-5 shrink-0 text-accent-ink" /> : null}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
