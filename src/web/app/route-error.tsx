// The pages' error screens: the global one around every route, and a local one for the pages
// the spec puts inside their own boundary (the nav and footer stay usable around it).
import type { ReactNode } from "react";
import { useNavigate } from "react-router";
import { ErrorBoundary } from "@/web/components/error-boundary";
import { ErrorScreen } from "./error-screen";
import { forgetFailedCode } from "./lazy-code";

/** A lazy page whose code could not be fetched (offline, or a new release replaced the file). */
function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to fetch/i.test(
    message,
  );
}

function RouteError({ error, fullScreen, retry }: { error: unknown; fullScreen: boolean; retry: () => void }) {
  const navigate = useNavigate();
  // A page whose code failed to download: only a fresh page load fetches the current release's.
  const tryAgain = () => (isChunkLoadError(error) ? window.location.reload() : retry());
  return <ErrorScreen error={error} fullScreen={fullScreen} onRetry={tryAgain} onGoHome={() => navigate("/")} />;
}

/**
 * A page that fails (its code or its render) shows the error screen instead: full screen, or in
 * the page's place. Another address (`resetKey`: the location's key) draws again.
 */
export function RouteErrorBoundary({ fullScreen, resetKey, children }: { fullScreen: boolean; resetKey?: unknown; children: ReactNode }) {
  return (
    <ErrorBoundary
      resetKey={resetKey}
      onReset={forgetFailedCode}
      fallback={(retry, error) => <RouteError error={error} fullScreen={fullScreen} retry={retry} />}
    >
      {children}
    </ErrorBoundary>
  );
}
