// 'Delete' with an "are you sure?" first; the toast says what happened.
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { Button } from "@/web/components/ui/button";
import { toast } from "@/web/lib/toast";
import { ConfirmDialog } from "../../components/confirm-dialog";

export function DeleteAction({
  what,
  description,
  onDelete,
  label = "Delete",
}: {
  /** e.g. 'the package “3 Months”' */
  what: string;
  description?: string;
  onDelete: () => Promise<unknown>;
  label?: string;
}) {
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const confirm = async () => {
    setPending(true);
    try {
      await onDelete();
      toast.success("Deleted", { description: `Deleted ${what}.` });
      setOpen(false);
    } catch (error) {
      toast.error("Not deleted", { description: error instanceof Error ? error.message : "Please try again." });
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <Button variant="ghost" size="sm" className="text-bad hover:text-bad" onClick={() => setOpen(true)}>
        <Trash2 aria-hidden="true" />
        {label}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete ${what}?`}
        description={description ?? "This cannot be undone."}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={pending}
        destructive
        onConfirm={confirm}
      />
    </>
  );
}
