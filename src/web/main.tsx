// Entry point: styles, providers, the router, and the service worker (spec §2: registered from
// /sw.js on load).
import "./styles.css";
import { startTransition, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { AppShell } from "./app/app-shell";
import { createQueryClient } from "./app/query-client";
import { createRouter } from "./app/router";
import { readBootData, seedFirstScreen } from "./lib/first-screen";
import { registerServiceWorker } from "./lib/service-worker";

const queryClient = createQueryClient();
seedFirstScreen(queryClient, readBootData());
const router = createRouter();
const container = document.getElementById("root")!;

/** Once the app's first render is on screen, the first screen is no longer the server's. */
function TakenOver() {
  useEffect(() => container.removeAttribute("data-first-screen"), []);
  return null;
}

const app = <AppShell queryClient={queryClient} router={<RouterProvider router={router} />} after={<TakenOver />} />;

// A transition: the first render yields to the browser every few milliseconds, so a slow phone
// can paint and answer taps while it runs.
function render() {
  startTransition(() => createRoot(container).render(app));
}

/** Adopts the markup the server drew (same components, same data) instead of drawing it again. */
function hydrate() {
  startTransition(() => {
    hydrateRoot(container, app, {
      onRecoverableError: (error) => {
        // The parts the server leaves to the browser (still loading there, #419) are simply drawn
        // here; anything else means the markup differed and that part was drawn again.
        const message = error instanceof Error ? error.message : String(error);
        if (/#419|could not finish this Suspense boundary/.test(message)) return;
        console.warn("The page was redrawn instead of adopted:", error);
      },
    });
  });
}

// The server drew the first screen (the landing's navigation and hero): it stays until the
// page's code is ready, which then adopts it rather than showing 'Loading...' in between.
if (container.dataset.firstScreen !== "server") {
  render();
} else if (router.state.initialized) {
  hydrate();
} else {
  const unsubscribe = router.subscribe((state) => {
    if (!state.initialized) return;
    unsubscribe();
    hydrate();
  });
}

registerServiceWorker();
