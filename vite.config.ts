// The web build: the SPA lives in src/web, index.html at the root, static files in public/.
// Output goes to dist/web, which the Fastify server serves (WEB_DIST_DIR).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants as zlib } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type Rolldown } from "vite";

const apiTarget = process.env.API_URL ?? "http://127.0.0.1:8080";

/**
 * Long-lived vendor chunks. Everything the public landing needs before first paint sits in
 * `vendor`; form and dialog libraries get their own chunks so that only the lazy code that
 * uses them (dialogs, forms, admin, client portal) ever downloads them.
 */
const chunkGroups = [
  // Mutations are only used by forms, which load later: their code stays out of the first chunk.
  {
    name: "vendor",
    test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/](?!.*(useMutation|mutationObserver)\.js$)/,
    priority: 30,
  },
  { name: "forms", test: /[\\/]node_modules[\\/]react-hook-form[\\/]/, priority: 20 },
  // Validation: loaded when a form is first used or checked, apart from the form library.
  { name: "zod", test: /[\\/]node_modules[\\/](@hookform|zod)[\\/]/, priority: 20 },
  // Toasts: the Toaster mounts after the first paint, and a toast only follows an action.
  { name: "toast", test: /[\\/]node_modules[\\/]sonner[\\/]/, priority: 20 },
  {
    name: "dialog",
    test: /[\\/]node_modules[\\/](@radix-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|get-nonce|detect-node-es|tslib)[\\/]/,
    priority: 20,
  },
];

const fromRoot = (file: string) => path.resolve(import.meta.dirname, file);
const ENTRY = fromRoot("src/web/main.tsx");
const LANDING = fromRoot("src/web/app/routes/landing-page.tsx");
/** Their dynamic imports are the pages of the route table (each its own chunk, as before). */
const ROUTE_TABLES = new Set([fromRoot("src/web/app/route-table.ts"), fromRoot("src/web/app/router.tsx")]);
/** Our code: the libraries keep the vendor groups above or rolldown's own chunks. */
const OURS = /[\\/]src[\\/](?:web|shared)[\\/]/;
/** The admin's and the client portal's pages and layouts. */
const STAFF = /[\\/]src[\\/]web[\\/]features[\\/](?:admin|client)[\\/]/;
const LUCIDE_INDEX = /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]lucide-react\.mjs$/;

type ModuleInfoOf = Parameters<Extract<Rolldown.CodeSplittingGroup["name"], (...args: never[]) => unknown>>[1]["getModuleInfo"];

/** lucide's index: each export name (`RotateCcw`, `RotateCcwIcon`, aliases) → its icon's file. */
function lucideIconFiles(indexFile: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [, names, file] of readFileSync(indexFile, "utf8").matchAll(/export \{([^}]+)\} from '(\.\/icons\/[^']+)'/g)) {
    for (const [, name] of names.matchAll(/default as (\w+)/g)) files.set(name, path.resolve(path.dirname(indexFile), file));
  }
  return files;
}

/** The names a module imports from lucide-react. */
const lucideImports = (code: string) =>
  [...code.matchAll(/import\s*\{([^}]+)\}\s*from\s*["']lucide-react["']/g)].flatMap(([, names]) =>
    names
      .split(",")
      .map((name) => name.trim().split(/\s+as\s+/)[0])
      .filter(Boolean),
  );

/**
 * The landing's lazy code in five chunks instead of ~85. Left to itself, rolldown gives each
 * set of modules shared by a different set of lazy importers its own chunk: each section, each
 * lucide icon two sections share, each small helper — 90 scripts for the landing with every
 * section shown, each a request with its own import lines. Here:
 * - `shell`: what every public page loads after its first paint (footer, notice bar,
 *   notifications' first run, live data, the page skeleton);
 * - `landing`: the landing page's own code (hero, about), which the first render adopts;
 * - `public`: what those two share;
 * - `shared`: what the sections share with the admin or the client portal;
 * - `sections`: the landing's sections below the fold, which all mount as the page is read.
 * Each is the static closure of its seeds; what those load later (a dialog, the special popup)
 * keeps its own chunk. A module in the entry's static graph stays in the entry's chunk; admin
 * and client pages are never seeds, so their code stays in their own chunks (a public page
 * sharing a section loads `sections`). The icons a chunk's modules import from lucide join it:
 * through lucide's index every icon looks reachable, so the import lines tell which are used.
 */
function landingChunks(): Rolldown.CodeSplittingGroup[] {
  let plan: Map<string, string> | undefined;
  const planOf = (info: ModuleInfoOf): Map<string, string> => {
    let icons: Map<string, string> | undefined;
    const walk = (seeds: Iterable<string>, skip: Set<string>, dynamic = false): Set<string> => {
      const into = new Set<string>();
      const queue = [...seeds];
      while (queue.length > 0) {
        const id = queue.pop()!;
        if (into.has(id) || skip.has(id)) continue;
        const module = info(id);
        if (!module) continue;
        into.add(id);
        if (LUCIDE_INDEX.test(id)) icons ??= lucideIconFiles(id);
        // A library's imports are its own business (lucide's index imports every icon).
        if (OURS.test(id)) queue.push(...module.importedIds, ...(dynamic ? module.dynamicallyImportedIds : []));
      }
      return into;
    };
    // Moved or renamed, they would leave every group empty and the landing in ~90 chunks again.
    for (const id of [ENTRY, LANDING])
      if (!info(id)) throw new Error(`landingChunks: ${path.relative(import.meta.dirname, id)} is not in the build`);
    const dynamicImportsOf = (ids: Iterable<string>) => [...ids].flatMap((id) => info(id)?.dynamicallyImportedIds ?? []);
    const entry = walk([ENTRY], new Set());
    const shell = walk(dynamicImportsOf([...entry].filter((id) => !ROUTE_TABLES.has(id))), entry);
    const landing = walk([LANDING], entry);
    // What both need (scrolling, deferred mounting, shared queries) in a chunk of its own: the
    // landing does not wait for the footer's code, nor another page for the landing's.
    const common = new Set([...landing].filter((id) => shell.has(id)));
    const sections = walk(dynamicImportsOf(landing), new Set([...entry, ...shell, ...landing]));
    // The admin's and the client portal's code, all of it: what the sections share with it goes
    // to `shared`, so a staff page never loads the landing's sections for a form field.
    const staff = walk(
      dynamicImportsOf(ROUTE_TABLES).filter((id) => STAFF.test(id)),
      entry,
      true,
    );
    const chunks = new Map<string, string>();
    for (const id of sections) if (staff.has(id) && OURS.test(id)) chunks.set(id, "shared");
    const iconUsers = new Map<string, Set<string>>();
    for (const [name, ids] of [
      ["public", common],
      ["shell", shell],
      ["landing", landing],
      ["sections", sections],
    ] as const) {
      for (const id of ids) {
        if (!OURS.test(id) || (chunks.has(id) && chunks.get(id) !== "shared")) continue;
        if (!chunks.has(id)) chunks.set(id, name);
        for (const icon of lucideImports(info(id)?.code ?? "")) {
          const file = icons?.get(icon);
          if (file) iconUsers.set(file, (iconUsers.get(file) ?? new Set()).add(chunks.get(id)!));
        }
      }
    }
    const staffIcons = new Set(
      [...staff].filter((id) => OURS.test(id)).flatMap((id) => lucideImports(info(id)?.code ?? "").map((icon) => icons?.get(icon))),
    );
    // An icon goes with the first chunk that uses it, to `public` when shell and landing both do,
    // and to `shared` rather than `sections` when a staff page uses it too.
    for (const [file, users] of iconUsers) {
      const first = users.has("shell") && users.has("landing") ? "public" : [...users][0];
      chunks.set(file, (first === "sections" || first === "shared") && staffIcons.has(file) ? "shared" : first);
    }
    return chunks;
  };
  return [
    {
      name: (id, ctx) => {
        plan ??= planOf((moduleId) => ctx.getModuleInfo(moduleId));
        return plan.get(id) ?? null;
      },
      priority: 10,
      // A module the entry also needs stays in the entry's chunk rather than following its importer.
      includeDependenciesRecursively: false,
    },
  ];
}

/**
 * The built page runs the app only after its first paint (public/app-start.js): nothing but that
 * small script stands between the page's HTML and CSS and the first paint of what the server
 * drew (or 'Loading...'). The module script and its modulepreload links become data on
 * app-start.js, which fetches them all at once, in parallel, once the browser reports the first
 * contentful paint (Paint Timing; after 2 s at the latest; at once in a hidden tab, which paints
 * nothing): until then the page's HTML, CSS and font have the connection to themselves.
 * app-start.js carries no comments: its bytes count in the landing's budget.
 */
function startAfterFirstPaint(): Plugin {
  return {
    name: "streamdesk:start-after-first-paint",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html) {
        const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
        const entryUrl = html.match(entry)?.[1];
        if (!entryUrl) throw new Error("startAfterFirstPaint: no module entry script in index.html");
        const preloads: string[] = [];
        const page = html.replace(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g, (_, href: string) => {
          preloads.push(href);
          return "";
        });
        return page.replace(
          entry,
          `<script src="/app-start.js" data-entry="${entryUrl}" data-preload="${preloads.join(" ")}" defer></script>`,
        );
      },
    },
  };
}

/**
 * The text of the first screen is set in Inter's Latin subset: the page asks for it alongside
 * its stylesheet, so the font is usually there for the first layout. The browser then lays the
 * page out once, in Inter, rather than in a fallback and again when Inter arrives (a second
 * layout of the whole page, and text that moves).
 */
function preloadFirstScreenFont(): Plugin {
  return {
    name: "streamdesk:preload-first-screen-font",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, { bundle }) {
        const font = Object.keys(bundle ?? {}).find((file) => /inter-latin-wght-normal-[\w-]+\.woff2$/.test(file));
        if (!font) throw new Error("preloadFirstScreenFont: Inter's Latin subset is not in the build");
        const link = `<link rel="preload" href="/${font}" as="font" type="font/woff2" crossorigin>`;
        return html.replace(/(\s*)<link rel="stylesheet"/, `$1${link}$1<link rel="stylesheet"`);
      },
    },
  };
}

/** Text assets worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|css|svg|json|webmanifest|txt|xml)$/;
const MIN_COMPRESS_BYTES = 1024;

/**
 * Every text asset ships beside its brotli and gzip forms (name.br, name.gz), made once at
 * build at the highest levels; the server sends those as they are (fastify-static
 * `preCompressed`) instead of compressing the same file again for each visitor.
 */
function precompressAssets(): Plugin {
  let outDir = "";
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? files(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    );
  return {
    name: "streamdesk:precompress-assets",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle() {
      const targets = files(outDir).filter((file) => COMPRESSIBLE.test(file) && statSync(file).size >= MIN_COMPRESS_BYTES);
      await Promise.all(
        targets.map(async (file) => {
          const bytes = readFileSync(file);
          const [br, gzipped] = await Promise.all([
            brotli(bytes, {
              params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length },
            }),
            gz(bytes, { level: 9 }),
          ]);
          writeFileSync(`${file}.br`, br);
          writeFileSync(`${file}.gz`, gzipped);
        }),
      );
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  root: ".",
  publicDir: isSsrBuild ? false : "public",
  plugins: [react(), tailwindcss(), startAfterFirstPaint(), preloadFirstScreenFont(), ...(isSsrBuild ? [] : [precompressAssets()])],
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  // The server-side first screen (src/web/ssr): one self-contained bundle in dist/ssr.
  ssr: { noExternal: true },
  build: {
    outDir: isSsrBuild ? "dist/ssr" : "dist/web",
    emptyOutDir: true,
    assetsDir: "assets",
    modulePreload: {
      // Browsers that run this app support <link rel=modulepreload>; the polyfill would only add bytes.
      polyfill: false,
      // The page's HTML still names every chunk its entry needs. A lazy chunk's own imports are
      // left to the browser's module loader: Vite's helper would add one <link> per chunk to
      // <head> in a single task, inside the render that needs the chunk (60 on the landing,
      // ~100 ms on a slow phone), while the loader fetches them in small tasks of its own.
      resolveDependencies: (_file, deps, { hostType }) => (hostType === "html" ? deps : deps.filter((dep) => dep.endsWith(".css"))),
    },
    target: "es2022",
    // The landing budget is checked by `npm run bench`; this only flags a chunk gone wild.
    chunkSizeWarningLimit: 400,
    rolldownOptions: isSsrBuild ? {} : { output: { codeSplitting: { groups: [...chunkGroups, ...landingChunks()] } } },
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
