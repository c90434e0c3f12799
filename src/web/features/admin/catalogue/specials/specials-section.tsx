// /admin/specials: price cuts on a package. A special shows on a pricing card when its package
// name matches the package and its original price equals the package's price (spec §4); the
// card then reads 'SPECIAL' and 'Save R{difference}'. This list warns when one matches nothing.
import { Pencil } from "lucide-react";
import { useState } from "react";
import type { Package } from "@/shared/api";
import { formatDate } from "@/shared/dates";
import { formatRand } from "@/shared/money";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { actionsColumn, type Column } from "../../components/data-table";
import { useDeleteResource, useResourceList } from "../api/resources";
import type { AdminSpecial } from "../api/types";
import { DeleteAction } from "../components/delete-action";
import { type Editing, ResourcePage } from "../components/resource-page";
import { RowActions } from "../components/row-actions";
import { matchedPackage } from "./matched-package";
import { SpecialFormDialog } from "./special-form";

function windowText(s: AdminSpecial): string | null {
  if (!s.starts_at && !s.ends_at) return null;
  if (s.starts_at && s.ends_at) return `${formatDate(s.starts_at)} – ${formatDate(s.ends_at)}`;
  return s.starts_at ? `From ${formatDate(s.starts_at)}` : `Until ${formatDate(s.ends_at as string)}`;
}

export function SpecialsSection() {
  const specials = useResourceList<AdminSpecial>("specials");
  const packages = useResourceList<Package>("packages");
  const remove = useDeleteResource("specials");
  const [editing, setEditing] = useState<Editing<AdminSpecial>>(null);

  const columns: Column<AdminSpecial>[] = [
    {
      id: "package_name",
      header: "Package",
      card: "title",
      sortable: true,
      cell: (s) => (
        <span className="flex flex-col">
          <span>{s.package_name}</span>
          {s.title ? <span className="text-xs font-normal text-ink-subtle">{s.title}</span> : null}
        </span>
      ),
    },
    {
      id: "original_price",
      header: "Was",
      className: "tabular whitespace-nowrap",
      cell: (s) => <span className="text-ink-muted line-through">{formatRand(s.original_price)}</span>,
    },
    { id: "special_price", header: "Now", className: "tabular whitespace-nowrap font-semibold", cell: (s) => formatRand(s.special_price) },
    {
      id: "saving",
      header: "Saving",
      className: "tabular whitespace-nowrap",
      sortable: true,
      sortValue: (s) => s.original_price - s.special_price,
      cell: (s) => <span className="text-special-ink">Save {formatRand(s.original_price - s.special_price)}</span>,
    },
    {
      id: "status",
      header: "On the site",
      cell: (s) => {
        const match = packages.data ? matchedPackage(s, packages.data) : null;
        const window = windowText(s);
        return (
          <span className="flex flex-col items-end gap-1 md:items-start">
            {!s.is_active ? (
              <Badge variant="neutral" className="px-2.5 py-0.5 text-[0.7rem]">
                Inactive
              </Badge>
            ) : packages.data && !match ? (
              <Badge variant="warn" className="px-2.5 py-0.5 text-[0.7rem]" title="No package has this name and original price">
                Matches no package
              </Badge>
            ) : (
              <Badge variant="ok" className="px-2.5 py-0.5 text-[0.7rem]">
                Active
              </Badge>
            )}
            {window ? <span className="text-xs text-ink-subtle">{window}</span> : null}
          </span>
        );
      },
    },
    actionsColumn(
      (s) => (
        <RowActions>
          <Button variant="ghost" size="sm" onClick={() => setEditing(s)} aria-label={`Edit the special on ${s.package_name}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <DeleteAction
            what={`the special on ${s.package_name}`}
            description="The package goes back to its normal price."
            onDelete={() => remove.mutateAsync(s.id)}
          />
        </RowActions>
      ),
      "text-right",
    ),
  ];

  return (
    <ResourcePage
      title="Pricing specials"
      description="A special lowers a package's price; the card shows SPECIAL, the old price struck through and the saving."
      newLabel="New special"
      caption="Pricing specials"
      emptyMessage="No specials at the moment. Add one with New special."
      list={specials}
      columns={columns}
      editing={editing}
      onEdit={setEditing}
      form={(special, onDone) => (
        <SpecialFormDialog special={special} packages={packages.data ?? []} open onOpenChange={(open) => !open && onDone()} />
      )}
    />
  );
}
