// The global error screen (spec §2): fixed texts, Try Again and Go Home. The error itself goes
// only to the browser console, never onto the page.
import { useEffect } from "react";
import { Button } from "@/web/components/ui/button";
import { HomeGlyph, RotateCcwGlyph, TriangleAlertGlyph } from "@/web/components/ui/glyphs";
import { cn } from "@/web/lib/cn";

export interface ErrorScreenProps {
  error: unknown;
  /** clears the error and renders again */
  onRetry: () => void;
  /** goes to '/'; defaults to a full page load of the root path */
  onGoHome?: () => void;
  /** fill the viewport (the app-wide screen) or sit inside the page (a local boundary) */
  fullScreen?: boolean;
}

export function ErrorScreen({ error, onRetry, onGoHome, fullScreen = true }: ErrorScreenProps) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <div
      role="alert"
      className={cn("flex items-center justify-center px-4 text-center", fullScreen ? "min-h-dvh bg-canvas py-16" : "py-20")}
    >
      <div className="flex max-w-md flex-col items-center gap-5">
        <span className="flex size-16 items-center justify-center rounded-full bg-accent-soft text-accent-ink">
          <TriangleAlertGlyph className="size-8" />
        </span>
        <h1 className="text-2xl font-bold tracking-tight text-ink sm:text-3xl">Something went wrong</h1>
        <p className="text-ink-muted">We encountered an unexpected error. This has been logged and we'll work to fix it.</p>
        <div className="mt-2 flex w-full flex-col gap-3 sm:w-auto sm:flex-row">
          <Button onClick={onRetry}>
            <RotateCcwGlyph />
            Try Again
          </Button>
          <Button variant="outline" onClick={onGoHome ?? (() => window.location.assign("/"))}>
            <HomeGlyph />
            Go Home
          </Button>
        </div>
      </div>
    </div>
  );
}
