import { RotateCcw } from "lucide-react";
import type { ReactNode } from "react";
import { ErrorBoundary } from "@/web/components/error-boundary";
import { Button } from "@/web/components/ui/button";

/** One admin section failing (its code or its render) leaves the wrapper and navigation working. */
export function SectionErrorBoundary({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary
      fallback={(retry) => (
        <div role="alert" className="flex flex-col items-center gap-4 rounded-card border border-line bg-surface px-6 py-14 text-center">
          <h1 className="text-xl font-bold text-ink">Something went wrong</h1>
          <p className="max-w-md text-ink-muted">This part of the dashboard couldn't load. Your other sections still work.</p>
          <Button variant="outline" size="sm" onClick={retry}>
            <RotateCcw aria-hidden="true" />
            Try Again
          </Button>
        </div>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
