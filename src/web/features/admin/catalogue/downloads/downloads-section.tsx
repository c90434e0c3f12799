// /admin/apps: the player apps customers install, with their download link, guide and QR code.
import { Pencil, Star } from "lucide-react";
import { useState } from "react";
import { DEVICE_LABELS } from "@/shared/options";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { actionsColumn, type Column } from "../../components/data-table";
import { useDeleteResource, useResourceList } from "../api/resources";
import type { AdminDownload } from "../api/types";
import { DeleteAction } from "../components/delete-action";
import { type Editing, ResourcePage } from "../components/resource-page";
import { RowActions } from "../components/row-actions";
import { DownloadFormDialog } from "./download-form";

const deviceText = (list: string[]) =>
  list.length ? list.map((d) => DEVICE_LABELS[d as keyof typeof DEVICE_LABELS] ?? d).join(", ") : "—";

export function DownloadsSection() {
  const list = useResourceList<AdminDownload>("downloads");
  const remove = useDeleteResource("downloads");
  const [editing, setEditing] = useState<Editing<AdminDownload>>(null);

  const columns: Column<AdminDownload>[] = [
    {
      id: "name",
      header: "App",
      card: "title",
      sortable: true,
      cell: (d) => (
        <span className="flex items-center gap-3">
          {d.logo_url ? <img src={d.logo_url} alt="" width={32} height={32} className="size-8 shrink-0 rounded-lg" /> : null}
          <span className="flex flex-col">
            <span className="flex items-center gap-1">
              {d.name}
              {d.is_featured ? <Star aria-label="Featured" className="size-4 fill-current text-special" /> : null}
            </span>
            <span className="text-xs font-normal text-ink-subtle">
              {[d.version && `v${d.version}`, d.file_size].filter(Boolean).join(" · ")}
            </span>
          </span>
        </span>
      ),
    },
    { id: "devices", header: "Works on", cell: (d) => <span className="line-clamp-2 max-w-xs">{deviceText(d.device_compatibility)}</span> },
    {
      id: "download_count",
      header: "Downloads",
      sortable: true,
      className: "tabular",
      cell: (d) => d.download_count.toLocaleString("en-ZA"),
    },
    {
      id: "status",
      header: "Status",
      cell: (d) => (
        <span className="flex flex-wrap justify-end gap-1 md:justify-start">
          <Badge variant={d.is_active ? "ok" : "neutral"} className="px-2.5 py-0.5 text-[0.7rem]">
            {d.is_active ? "Active" : "Hidden"}
          </Badge>
          {!d.download_url ? (
            <Badge variant="warn" className="px-2.5 py-0.5 text-[0.7rem]">
              No link
            </Badge>
          ) : null}
          {!d.installation_guide ? (
            <Badge variant="warn" className="px-2.5 py-0.5 text-[0.7rem]">
              No guide
            </Badge>
          ) : null}
        </span>
      ),
    },
    actionsColumn(
      (d) => (
        <RowActions>
          <Button variant="ghost" size="sm" onClick={() => setEditing(d)} aria-label={`Edit ${d.name}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <DeleteAction what={`the app “${d.name}”`} onDelete={() => remove.mutateAsync(d.id)} />
        </RowActions>
      ),
      "text-right",
    ),
  ];

  return (
    <ResourcePage
      title="Apps"
      description="The player apps on the downloads page: links, installation guides and QR codes."
      newLabel="New app"
      caption="Apps"
      emptyMessage="No apps yet."
      list={list}
      columns={columns}
      editing={editing}
      onEdit={setEditing}
      form={(app, onDone) => <DownloadFormDialog app={app} onDone={onDone} />}
    />
  );
}
