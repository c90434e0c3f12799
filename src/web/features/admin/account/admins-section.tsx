// /admin/admins: who can sign in to the business dashboard. Add one; correct a name or e-mail;
// remove one after a confirmation (the server refuses to remove the last admin, and says so).
import { Pencil, Trash2, UserPlus } from "lucide-react";
import { useState } from "react";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { toast } from "@/web/lib/toast";
import { AdminPageHeader } from "../components/admin-page-header";
import { ConfirmDialog } from "../components/confirm-dialog";
import { type Column, DataTable, listQueryProps } from "../components/data-table";
import { formatDate } from "../components/format";
import { useAdminSession } from "../session/admin-session";
import { AddAdminDialog } from "./add-admin-dialog";
import { useDeleteAdmin } from "./api/delete-admin";
import { type AdminAccount, useAdmins } from "./api/get-admins";
import { EditAdminDialog } from "./edit-admin-dialog";

export function AdminsSection() {
  const { session } = useAdminSession();
  const admins = useAdmins();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<AdminAccount | null>(null);
  const [removing, setRemoving] = useState<AdminAccount | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const remove = useDeleteAdmin();
  const myId = session.admin?.id;

  const ask = (admin: AdminAccount) => {
    setRefusal(null);
    setRemoving(admin);
  };
  const confirm = () => {
    if (!removing) return;
    const admin = removing;
    remove.mutate(admin.id, {
      onSuccess: () => {
        toast.success("Admin removed", { description: `${admin.name || admin.email} can no longer sign in.` });
        setRemoving(null);
      },
      onError: (error) => {
        setRefusal(error.message);
        toast.error("Admin not removed", { description: error.message });
      },
    });
  };

  const columns: Column<AdminAccount>[] = [
    {
      id: "name",
      header: "Admin",
      card: "title",
      sortable: true,
      cell: (a) => (
        <span className="flex flex-wrap items-center gap-2">
          {a.name || a.email}
          {a.id === myId ? (
            <Badge variant="accent" className="px-2 py-0.5 text-[0.65rem]">
              You
            </Badge>
          ) : null}
        </span>
      ),
    },
    { id: "email", header: "Email", sortable: true, cell: (a) => <span className="break-all">{a.email}</span> },
    {
      id: "created_at",
      header: "Added",
      sortable: true,
      sortLabels: ["Oldest first", "Newest first"],
      className: "whitespace-nowrap tabular",
      cell: (a) => formatDate(a.created_at),
    },
    {
      id: "actions",
      header: "",
      card: "footer",
      cell: (a) => (
        <span className="flex flex-wrap items-center gap-1 md:justify-end">
          <Button variant="ghost" size="sm" onClick={() => setEditing(a)} aria-label={`Edit ${a.name || a.email}`}>
            <Pencil aria-hidden="true" />
            Edit
          </Button>
          <Button variant="ghost" size="sm" onClick={() => ask(a)} aria-label={`Remove ${a.name || a.email}`}>
            <Trash2 aria-hidden="true" />
            Remove
          </Button>
        </span>
      ),
    },
  ];

  const self = removing?.id === myId;
  return (
    <>
      <AdminPageHeader
        title="Admins"
        description="Everyone who can sign in to this dashboard."
        actions={
          <Button onClick={() => setAdding(true)}>
            <UserPlus aria-hidden="true" />
            Add admin
          </Button>
        }
      />
      <DataTable caption="Admins" columns={columns} {...listQueryProps(admins)} rowKey={(a) => a.id} emptyMessage="No admins." />
      <AddAdminDialog open={adding} onOpenChange={setAdding} />
      <EditAdminDialog admin={editing} onClose={() => setEditing(null)} />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={self ? "Remove yourself?" : `Remove ${removing?.name || removing?.email || "this admin"}?`}
        description={
          self
            ? "You'll be signed out at once and can't sign in again unless another admin adds you back."
            : `${removing?.email ?? "They"} will be signed out everywhere and can no longer sign in.`
        }
        confirmLabel="Remove"
        pendingLabel="Removing..."
        pending={remove.isPending}
        destructive
        onConfirm={confirm}
      >
        {refusal ? (
          <p role="alert" className="rounded-xl border border-bad/40 bg-bad/10 px-4 py-3 text-sm text-bad">
            {refusal}
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
