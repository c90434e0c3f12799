import { RotateCcw } from "lucide-react";
import type { ReactNode } from "react";
import { ErrorBoundary } from "@/web/components/error-boundary";
import { Button } from "@/web/components/ui/button";
import { Container } from "@/web/components/ui/container";

/**
 * One section of a page failing (its code or its render) leaves the rest of the page working.
 * `id` is the section's anchor, kept on the fallback so links to it still land.
 */
export function SectionBoundary({ id, children }: { id: string; children: ReactNode }) {
  return (
    <ErrorBoundary
      fallback={(retry) => (
        <section id={id} className="py-16">
          <Container className="flex flex-col items-center gap-4 text-center">
            <p className="text-ink-muted">This part of the page couldn't load.</p>
            <Button variant="outline" size="sm" onClick={retry}>
              <RotateCcw aria-hidden="true" />
              Try Again
            </Button>
          </Container>
        </section>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
