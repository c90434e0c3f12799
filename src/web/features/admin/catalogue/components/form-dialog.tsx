// The dialog every catalogue create/edit form sits in: title, the fields, a form-level error,
// Cancel and Save. Clicking outside does not close it, so a half-typed form is never lost.
import type { FormEvent, ReactNode } from "react";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/web/components/ui/dialog";
import { cn } from "@/web/lib/cn";
import { type FieldErrors, FormError } from "../../components/form-field";

export function FormDialog({
  open,
  onOpenChange,
  title,
  description,
  errors,
  pending,
  submitLabel = "Save",
  onSubmit,
  wide,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  errors: FieldErrors;
  pending: boolean;
  submitLabel?: string;
  onSubmit: () => void;
  wide?: boolean;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog open={open} onOpenChange={(next) => !pending && onOpenChange(next)}>
      <DialogContent className={cn(wide ? "max-w-3xl" : "max-w-2xl")} onInteractOutside={(event) => event.preventDefault()}>
        <form onSubmit={submit} noValidate>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            {description ? (
              <DialogDescription>{description}</DialogDescription>
            ) : (
              <DialogDescription className="sr-only">{title}</DialogDescription>
            )}
          </DialogHeader>
          <div className="flex flex-col gap-5">
            <FormError errors={errors} />
            {children}
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Saving..." : submitLabel}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
