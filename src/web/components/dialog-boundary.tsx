// A lazily loaded dialog whose code cannot arrive (a new release replaced the files, or the
// connection dropped) must not take the section it sits in down with it (the pricing cards, the
// apps list): the dialog closes and the visitor is told what to do.
import type { ReactNode } from "react";
import { toast } from "@/web/lib/toast";
import { ErrorBoundary } from "./error-boundary";

export function DialogBoundary({ onClose, children }: { onClose: () => void; children: ReactNode }) {
  return (
    <ErrorBoundary
      fallback={() => null}
      onError={() => {
        toast.error("Couldn't open this just now", { description: "Please check your connection and reload the page." });
        onClose();
      }}
    >
      {children}
    </ErrorBoundary>
  );
}
