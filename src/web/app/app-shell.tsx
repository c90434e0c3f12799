// The app's outer frame, the same in the browser and for the server's first screen (ssr/), so
// the browser can adopt what the server drew: the same components in the same places.
import type { QueryClient } from "@tanstack/react-query";
import { type ReactNode, StrictMode } from "react";
import { AppErrorBoundary } from "./app-error-boundary";
import { Providers } from "./providers";

export function AppShell({ queryClient, router, after }: { queryClient: QueryClient; router: ReactNode; after: ReactNode }) {
  return (
    <StrictMode>
      <AppErrorBoundary>
        <Providers queryClient={queryClient}>
          {router}
          {after}
        </Providers>
      </AppErrorBoundary>
    </StrictMode>
  );
}
