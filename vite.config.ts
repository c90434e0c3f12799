// The web build: the SPA lives in src/web, index.html at the root, static files in public/.
// Output goes to dist/web, which the Fastify server serves (WEB_DIST_DIR).
import path from "node:path";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const apiTarget = process.env.API_URL ?? "http://127.0.0.1:8080";

/**
 * Long-lived vendor chunks. Everything the public landing needs before first paint sits in
 * `vendor`; form and dialog libraries get their own chunks so that only the lazy code that
 * uses them (dialogs, forms, admin, client portal) ever downloads them.
 */
const chunkGroups = [
  { name: "vendor", test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/, priority: 30 },
  { name: "forms", test: /[\\/]node_modules[\\/]react-hook-form[\\/]/, priority: 20 },
  // Validation: loaded when a form is first used or checked, apart from the form library.
  { name: "zod", test: /[\\/]node_modules[\\/](@hookform|zod)[\\/]/, priority: 20 },
  {
    name: "dialog",
    test: /[\\/]node_modules[\\/](@radix-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|get-nonce|detect-node-es|tslib)[\\/]/,
    priority: 20,
  },
];

export default defineConfig(({ isSsrBuild }) => ({
  root: ".",
  publicDir: isSsrBuild ? false : "public",
  plugins: [react(), tailwindcss()],
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  // The server-side first screen (src/web/ssr): one self-contained bundle in dist/ssr.
  ssr: { noExternal: true },
  build: {
    outDir: isSsrBuild ? "dist/ssr" : "dist/web",
    emptyOutDir: true,
    assetsDir: "assets",
    // Browsers that run this app support <link rel=modulepreload>; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    target: "es2022",
    // The landing budget is checked by `npm run bench`; this only flags a chunk gone wild.
    chunkSizeWarningLimit: 400,
    rolldownOptions: isSsrBuild ? {} : { output: { codeSplitting: { groups: chunkGroups } } },
  },
  server: {
    proxy: {
      // SSE (/api/events) streams through: no buffering, no timeout on the long-lived response.
      "/api": { target: apiTarget, changeOrigin: false, timeout: 0, proxyTimeout: 0 },
    },
  },
  preview: {
    proxy: {
      "/api": { target: apiTarget, changeOrigin: false, timeout: 0, proxyTimeout: 0 },
    },
  },
}));
