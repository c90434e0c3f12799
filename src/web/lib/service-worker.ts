/**
 * Registers /sw.js once the page has loaded, so it never competes with the first paint. Only
 * in production builds: in development Vite serves unhashed modules a cache would pin.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  const register = () => {
    navigator.serviceWorker.register("/sw.js").catch((error: unknown) => {
      // Offline support is a bonus; the site works without it.
      console.warn("Service worker registration failed", error);
    });
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
