// A dashboard dialog that holds one form: a click beside it does not close it (what was typed
// would be lost), and the form is mounted only while the dialog is open, so each opening starts
// from a fresh form. The form gets `onDone`, which closes the dialog.
import type { ReactNode } from "react";
import { Dialog, DialogContent } from "@/web/components/ui/dialog";

export function FormOnlyDialog({
  open,
  onOpenChange,
  className,
  form,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** the dialog's width, e.g. "max-w-2xl" */
  className?: string;
  form: (onDone: () => void) => ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className={className} onInteractOutside={(event) => event.preventDefault()}>
        {open ? form(() => onOpenChange(false)) : null}
      </DialogContent>
    </Dialog>
  );
}
