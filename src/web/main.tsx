// Entry point: styles, providers, the router, and the service worker (spec §2: registered from
// /sw.js on load).
import "./styles.css";
import { type ReactNode, startTransition, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { AppShell } from "./app/app-shell";
import { createQueryClient } from "./app/query-client";
import { AppRoutes, preloadRoute } from "./app/router";
import { readBootData, seedFirstScreen } from "./lib/first-screen";
import { registerServiceWorker } from "./lib/service-worker";

const container = document.getElementById("root")!;

/** Once the app's first render is on screen, the first screen is no longer the server's. */
function TakenOver() {
  useEffect(() => container.removeAttribute("data-first-screen"), []);
  return null;
}

// A transition: the first render yields to the browser every few milliseconds, so a slow phone
// can paint and answer taps while it runs.
function render(app: ReactNode) {
  startTransition(() => createRoot(container).render(app));
}

/** Adopts the markup the server drew (same components, same data) instead of drawing it again. */
function hydrate(app: ReactNode) {
  startTransition(() => {
    hydrateRoot(container, app, {
      // The markup differed from what the server drew, and that part was drawn again. Parts
      // whose code arrives later are not in the server's markup (components/after-hydration).
      onRecoverableError: (error) => console.warn("The page was redrawn instead of adopted:", error),
    });
  });
}

/**
 * Ends the current task, so the browser can paint and answer a tap before the next step: on a
 * slow phone each step of starting the app is a task of its own rather than one long one.
 */
function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

/** How many of the server's inlined reads go into the cache in one task. */
const SEED_STEP = 5;

async function start() {
  // The page's code (and its wrapper's) starts downloading at once; a failed download is drawn
  // as the error screen by the page's own boundary.
  const pageCode = preloadRoute(window.location.pathname).catch(() => undefined);
  await nextTask();
  const queryClient = createQueryClient();
  // The server's reads go into the cache a few at a time, a task each (about 20 of them).
  const boot = Object.entries(readBootData());
  for (let i = 0; i < boot.length; i += SEED_STEP) {
    seedFirstScreen(queryClient, Object.fromEntries(boot.slice(i, i + SEED_STEP)));
    await nextTask();
  }
  const app = (
    <AppShell
      queryClient={queryClient}
      router={
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      }
      after={<TakenOver />}
    />
  );
  // The server drew the first screen (the landing's navigation and hero): it stays until the
  // page's code is ready, which then adopts it rather than showing 'Loading...' in between.
  if (container.dataset.firstScreen !== "server") return render(app);
  await pageCode;
  await nextTask();
  hydrate(app);
}

void start();
registerServiceWorker();
