// Entry point: styles, providers, the router, and the service worker (spec §2: registered from
// /sw.js on load).
import "./styles.css";
import { StrictMode, startTransition, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { AppErrorBoundary } from "./app/app-error-boundary";
import { Providers } from "./app/providers";
import { createQueryClient } from "./app/query-client";
import { createRouter } from "./app/router";
import { readBootData, seedFirstScreen } from "./lib/first-screen";
import { registerServiceWorker } from "./lib/service-worker";

const queryClient = createQueryClient();
seedFirstScreen(queryClient, readBootData());
const router = createRouter();
const container = document.getElementById("root")!;
const root = createRoot(container);

/** Once the app's first render is on screen, the first screen is no longer the server's. */
function TakenOver() {
  useEffect(() => container.removeAttribute("data-first-screen"), []);
  return null;
}

function render() {
  // A transition: the first render yields to the browser every few milliseconds, so a slow
  // phone can paint and answer taps while it runs.
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppErrorBoundary>
          <Providers queryClient={queryClient}>
            <RouterProvider router={router} />
            <TakenOver />
          </Providers>
        </AppErrorBoundary>
      </StrictMode>,
    ),
  );
}

// The server drew the first screen (the landing's navigation and hero): it stays until the
// page's code is ready to draw the same, rather than giving way to 'Loading...' in between.
if (container.dataset.firstScreen === "server" && !router.state.initialized) {
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    unsubscribe();
    render();
  });
} else {
  render();
}

registerServiceWorker();
