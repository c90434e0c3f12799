// Accessible dialogs on Radix: focus is trapped and restored, Escape and the overlay close,
// the title labels the dialog. Import this only from lazy code (it pulls in Radix).
import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { type ComponentProps, type HTMLAttributes, useRef } from "react";
import { cn } from "@/web/lib/cn";

export const Dialog = DialogPrimitive.Root;

export interface DialogContentProps extends ComponentProps<typeof DialogPrimitive.Content> {
  /** hide the corner close button (the dialog then needs its own way out) */
  hideClose?: boolean;
}

type AutoFocusHandler = (event: Event) => void;

/**
 * Focus back where it was when the dialog opened. Radix returns it to a `DialogTrigger`, but most
 * of our dialogs open from state (a row's button, a page's header button, another dialog), and
 * then Radix would leave focus on the page's body: keyboard users would start again from the top.
 * Spread the handlers on a Radix Content; a caller's own handlers run first and may prevent this.
 */
export function useReturnFocus(onOpenAutoFocus?: AutoFocusHandler, onCloseAutoFocus?: AutoFocusHandler) {
  const opener = useRef<HTMLElement | null>(null);
  // When the opener sat in another dialog (a drawer's button), that dialog: if the button is gone
  // by the time this one closes (the action replaced it), focus goes back to that dialog instead...
  const openerDialog = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      // Radix asks before it moves focus in: what has focus now opened the dialog.
      const active = document.activeElement;
      opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
      openerDialog.current = opener.current?.closest<HTMLElement>('[role="dialog"], [role="alertdialog"]') ?? null;
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      onCloseAutoFocus?.(event);
      // ...and with neither left, the page's main region (when it takes focus), not the page's top
      const main = document.getElementById("main");
      const target = opener.current?.isConnected
        ? opener.current
        : openerDialog.current?.isConnected
          ? openerDialog.current
          : main?.hasAttribute("tabindex")
            ? main
            : null;
      opener.current = null;
      openerDialog.current = null;
      if (event.defaultPrevented || !target) return;
      event.preventDefault();
      target.focus({ preventScroll: true });
    },
  };
}

export interface ModalContentProps extends ComponentProps<typeof DialogPrimitive.Content> {
  /** where the Close (×) button sits; null: none */
  closeClassName: string | null;
}

/**
 * A modal's layer (the dialog's, the dashboard's side sheet's): over a dimmed page, focus
 * returned to what opened it, with its Close (×) button.
 */
export function ModalContent({ children, closeClassName, onOpenAutoFocus, onCloseAutoFocus, ...props }: ModalContentProps) {
  const returnFocus = useReturnFocus(onOpenAutoFocus, onCloseAutoFocus);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm data-[state=open]:animate-fade-in" />
      <DialogPrimitive.Content {...returnFocus} {...props}>
        {children}
        {closeClassName === null ? null : (
          <DialogPrimitive.Close
            className={cn(
              "absolute inline-flex size-11 items-center justify-center rounded-full text-ink-muted hover:bg-surface-overlay hover:text-ink",
              closeClassName,
            )}
            aria-label="Close"
          >
            <X className="size-5" aria-hidden="true" />
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogContent({ className, hideClose, ...props }: DialogContentProps) {
  return (
    <ModalContent
      className={cn(
        "fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto",
        "rounded-card border border-line bg-surface p-6 shadow-2xl shadow-black/50 focus:outline-none data-[state=open]:animate-fade-in",
        className,
      )}
      closeClassName={hideClose ? null : "top-3 right-3"}
      {...props}
    />
  );
}

export function DialogHeader({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("mb-4 flex flex-col gap-1.5 pr-10", className)} {...props} />;
}

export function DialogFooter({ className, ...props }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn("mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end", className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn("text-xl font-bold tracking-tight text-ink", className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn("text-sm text-ink-muted", className)} {...props} />;
}
