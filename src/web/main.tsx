// Entry point: styles, providers, the router, and the service worker (spec §2: registered from
// /sw.js on load).
import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { AppErrorBoundary } from "./app/app-error-boundary";
import { Providers } from "./app/providers";
import { createRouter } from "./app/router";
import { registerServiceWorker } from "./lib/service-worker";

const router = createRouter();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <AppErrorBoundary>
      <Providers>
        <RouterProvider router={router} />
      </Providers>
    </AppErrorBoundary>
  </StrictMode>,
);

registerServiceWorker();
