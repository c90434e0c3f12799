// /admin/packages: the plans on the pricing page, in their order. Add, edit, switch on and
// off, mark 'Most Popular', move up and down, delete. Every change reaches open public pages
// at once (the change feed, and the spec's adminPackageUpdated/pricingUpdated events here).
import { ArrowDown, ArrowUp, Eye, EyeOff, Pencil, Star } from "lucide-react";
import { useState } from "react";
import type { Package } from "@/shared/api";
import { formatRand } from "@/shared/money";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { actionsColumn, type Column } from "../../components/data-table";
import { useReorderPackages } from "../api/reorder-packages";
import { useDeleteResource, useResourceList, useUpdateResource } from "../api/resources";
import { DeleteAction } from "../components/delete-action";
import { IconButton, moveItem } from "../components/list-editor";
import { quickSave } from "../components/quick-save";
import { type Editing, ResourcePage } from "../components/resource-page";
import { RowActions } from "../components/row-actions";
import { PackageFormDialog } from "./package-form";

export function PackagesSection() {
  const list = useResourceList<Package>("packages");
  const update = useUpdateResource<Package>("packages");
  const remove = useDeleteResource("packages");
  const reorder = useReorderPackages();
  const [editing, setEditing] = useState<Editing<Package>>(null);
  const rows = list.data ?? [];

  const toggle = (pkg: Package, field: "is_active" | "is_featured") => {
    const next = !pkg[field];
    const what =
      field === "is_active"
        ? next
          ? "is live on the pricing page"
          : "is hidden from the pricing page"
        : next
          ? "carries the Most Popular badge"
          : "no longer carries the Most Popular badge";
    return quickSave(
      () => update.mutateAsync({ id: pkg.id, patch: { [field]: next } }),
      { title: "Package saved", description: `${pkg.name} ${what}.` },
      "Package not saved",
    );
  };

  const move = (index: number, by: -1 | 1) => {
    const ids = moveItem(
      rows.map((p) => p.id),
      index,
      by,
    );
    return quickSave(
      () => reorder.mutateAsync(ids),
      { title: "Order saved", description: `${rows[index].name} moved ${by < 0 ? "up" : "down"}.` },
      "Order not saved",
    );
  };

  /** Up and down for a package: in its own column on a wide screen, among the actions on a card. */
  const moveButtons = (pkg: Package, className: string) => {
    const index = rows.indexOf(pkg);
    return (
      <span className={className}>
        <IconButton label={`Move ${pkg.name} up`} disabled={index <= 0 || reorder.isPending} onClick={() => move(index, -1)}>
          <ArrowUp />
        </IconButton>
        <IconButton
          label={`Move ${pkg.name} down`}
          disabled={index === rows.length - 1 || reorder.isPending}
          onClick={() => move(index, 1)}
        >
          <ArrowDown />
        </IconButton>
      </span>
    );
  };

  const columns: Column<Package>[] = [
    {
      id: "order",
      header: "Order",
      card: "hidden",
      cell: (p) => {
        return moveButtons(p, "flex items-center gap-1");
      },
    },
    {
      id: "name",
      header: "Package",
      card: "title",
      cell: (p) => (
        <span className="flex flex-col">
          <span>{p.name}</span>
          <span className="text-xs font-normal text-ink-subtle">{p.features.length} features</span>
        </span>
      ),
    },
    {
      id: "price",
      header: "Price",
      className: "tabular whitespace-nowrap",
      cell: (p) => <span data-testid="admin-package-price">{formatRand(p.price)}</span>,
    },
    { id: "duration", header: "Duration", className: "whitespace-nowrap", cell: (p) => p.duration },
    {
      id: "status",
      header: "Shown",
      cell: (p) => (
        <span className="flex flex-wrap justify-end gap-1 md:justify-start">
          <Badge variant={p.is_active ? "ok" : "neutral"} className="px-2.5 py-0.5 text-[0.7rem]">
            {p.is_active ? "Active" : "Inactive"}
          </Badge>
          {p.is_featured ? (
            <Badge variant="accent" className="px-2.5 py-0.5 text-[0.7rem]">
              Most Popular
            </Badge>
          ) : null}
        </span>
      ),
    },
    actionsColumn((p) => {
      return (
        <RowActions>
          {moveButtons(p, "flex md:hidden")}
          <Button variant="ghost" size="sm" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => toggle(p, "is_active")}
            aria-label={`${p.is_active ? "Deactivate" : "Activate"} ${p.name}`}
          >
            {p.is_active ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
            {p.is_active ? "Deactivate" : "Activate"}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => toggle(p, "is_featured")}
            title={p.is_featured ? "Remove the Most Popular badge" : "Show as Most Popular"}
          >
            <Star aria-hidden="true" className={p.is_featured ? "fill-current" : undefined} />
            {/* the name says what it shows, then whose (WCAG 2.5.3, label in name) */}
            {p.is_featured ? "Unfeature" : "Feature"}
            <span className="sr-only"> {p.name} (Most Popular)</span>
          </Button>
          <DeleteAction
            what={`the package “${p.name}”`}
            description="It disappears from the pricing page. Clients on it keep their subscription; specials for it stop matching."
            onDelete={() => remove.mutateAsync(p.id)}
          />
        </RowActions>
      );
    }, "text-right"),
  ];

  return (
    <ResourcePage
      title="Packages"
      description="The plans on the pricing page, in the order shown. Changes appear on the public site at once."
      newLabel="New package"
      caption="Packages"
      emptyMessage="No packages yet. Add the first with New package."
      pageSize={100}
      list={list}
      columns={columns}
      editing={editing}
      onEdit={setEditing}
      form={(pkg, onDone) => <PackageFormDialog pkg={pkg} open onOpenChange={(open) => !open && onDone()} />}
    />
  );
}
