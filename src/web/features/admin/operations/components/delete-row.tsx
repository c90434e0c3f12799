// 'Delete' on a row of a generic resource: asks first, then deletes and toasts.
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { Button } from "@/web/components/ui/button";
import { toast } from "@/web/lib/toast";
import { ConfirmDialog } from "../../components/confirm-dialog";
import { useDeleteResource } from "../api/delete-resource";
import type { AdminResource } from "../api/resource";

export function DeleteRowButton({ resource, id, name }: { resource: AdminResource; id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const remove = useDeleteResource(resource);
  const run = () =>
    remove.mutate(id, {
      onSuccess: () => {
        toast.success(`${resource.label} deleted`, { description: `"${name}" was deleted.` });
        setOpen(false);
      },
      onError: (error) => toast.error(`${resource.label} not deleted`, { description: error.message }),
    });
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)} aria-label={`Delete ${name}`}>
        <Trash2 aria-hidden="true" />
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete this ${resource.label.toLowerCase()}?`}
        description={`"${name}" will be deleted for good. This can't be undone.`}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={remove.isPending}
        destructive
        onConfirm={run}
      />
    </>
  );
}
