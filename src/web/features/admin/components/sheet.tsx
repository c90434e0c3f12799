// A side drawer on Radix Dialog (focus trapped and restored, Escape and the overlay close it):
// the phone menu slides from the left, record details from the right.
import * as DialogPrimitive from "@radix-ui/react-dialog";
import type { ComponentProps, ReactNode } from "react";
import { ModalContent } from "@/web/components/ui/dialog";
import { cn } from "@/web/lib/cn";

export const Sheet = DialogPrimitive.Root;
export const SheetTitle = DialogPrimitive.Title;
export const SheetDescription = DialogPrimitive.Description;

export interface SheetContentProps extends ComponentProps<typeof DialogPrimitive.Content> {
  side?: "left" | "right";
  children: ReactNode;
}

export function SheetContent({ side = "right", className, ...props }: SheetContentProps) {
  return (
    <ModalContent
      className={cn(
        "fixed inset-y-0 z-50 flex w-full flex-col overflow-y-auto border-line bg-surface shadow-2xl shadow-black/50 focus:outline-none",
        "pt-[env(safe-area-inset-top)] pb-[env(safe-area-inset-bottom)] data-[state=open]:animate-fade-in",
        side === "left" ? "left-0 max-w-72 border-r" : "right-0 max-w-xl border-l",
        className,
      )}
      closeClassName="top-[calc(env(safe-area-inset-top)+0.5rem)] right-2"
      {...props}
    />
  );
}
