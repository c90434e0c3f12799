// The router's error elements: the global screen at the root, and a local one for the pages
// the spec puts inside their own boundary (the nav and footer stay usable around it).
import { useLocation, useNavigate, useRouteError } from "react-router";
import { ErrorScreen } from "./error-screen";

/** A lazy page whose code could not be fetched (offline, or a new release replaced the file). */
function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to fetch/i.test(
    message,
  );
}

function RouteError({ fullScreen }: { fullScreen: boolean }) {
  const error = useRouteError();
  const navigate = useNavigate();
  const location = useLocation();
  const retry = () => {
    // The router remembers a failed page download, so only a fresh page load fetches it again.
    if (isChunkLoadError(error)) return window.location.reload();
    // A new navigation to the same address resets the router's boundary and renders again.
    navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, preventScrollReset: true });
  };
  return <ErrorScreen error={error} fullScreen={fullScreen} onRetry={retry} onGoHome={() => navigate("/")} />;
}

export function GlobalRouteError() {
  return <RouteError fullScreen />;
}

export function LocalRouteError() {
  return <RouteError fullScreen={false} />;
}
