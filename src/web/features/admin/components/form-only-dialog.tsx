// Dashboard dialogs that hold one form: a click beside them does not close them (what was typed
// would be lost), and the form is mounted only while the dialog is open, so each opening starts
// from a fresh form.
import type { ReactNode } from "react";
import { Dialog, DialogContent } from "@/web/components/ui/dialog";

/** A dialog its parent opens and closes; the form gets `onDone`, which closes it. */
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

/** A dialog mounted only while open (its form with it), which cannot be closed while its form is `busy` saving. */
export function BusyLockedDialog({
  busy,
  onClose,
  className,
  children,
}: {
  busy: boolean;
  onClose: () => void;
  /** the dialog's width, e.g. "max-w-lg" */
  className?: string;
  children: ReactNode;
}) {
  return (
    <Dialog open onOpenChange={(next) => !next && !busy && onClose()}>
      <DialogContent className={className} onInteractOutside={(event) => event.preventDefault()}>
        {children}
      </DialogContent>
    </Dialog>
  );
}
