import { RotateCcw } from "lucide-react";
import { Button } from "@/web/components/ui/button";

/** A part of the portal that could not be read, with a way to try again. */
export function LoadError({ what, onRetry }: { what: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-start gap-3 rounded-card border border-line bg-surface p-6">
      <p className="text-ink">We couldn't load {what} just now. Check your connection and try again.</p>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCcw aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}
