// Pattern rules (run by `npm run lint`; docs/how-to.md says why each exists): the ways of doing a
// thing that we settled once, checked so a second way cannot creep back in.
//  1. One definition per query: no query key is defined in two files (a read several features
//     use lives once, in src/web/lib/queries; a feature keeps in its api/ only what it alone reads).
//  2. One way to write a form: a component that renders a <form> builds it with react-hook-form
//     and a zod resolver over a schema in src/shared; one that renders its form through a shell
//     (FORM_SHELLS: FormDialog, EditorDialog) does not check the values by hand (safeParse).
//  3. One import rule: a relative import stays inside its own unit (a feature, a server module,
//     an adapter, or a top-level folder such as lib/ or jobs/); anything further is `@/...`.
//  4. One way to raise a toast: `toast` from src/web/lib/toast, which loads sonner and mounts its
//     Toaster with the first toast; a module importing sonner itself would put it back on every page.
//  5. One place names a payment provider: its adapter's entry in the registry
//     (src/server/adapters/payments/registry.ts). A file under src/server/modules or
//     src/web/features (tests aside) names none, in code or comment: the server asks the registry,
//     the web GET /api/payment-providers. The names are read from src/shared/payment-providers.ts,
//     so a provider added there is covered at once.
//  6. One room, one job: no source file under src/ is over MAX_LINES (600) lines; tests,
//     migrations, the database schema and the seed content aside (issue 47). A longer file is a
//     room to split by part.
// `node scripts/check-patterns.mjs [root]` prints each problem and exits 1 when there is one;
// with --fix it first rewrites climbing imports to `@/...`. checkPatterns(root) returns the
// problems (the planted-violation tests call it on a copy).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const importRe = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;
const queryDefinitionRe =
  /\b(?:queryOptions|useQuery|useSuspenseQuery|useInfiniteQuery|infiniteQueryOptions)\s*\(\s*\{\s*queryKey:\s*([A-Za-z_$][\w$]*(?:\.[\w$]+)+)\s*[,}]/g;
/**
 * Forms written before the rule, still on useState + safeParse: tolerated until each is moved
 * (issue 17), and only these. Moving one makes the check say to take it off this list, so the
 * list only ever shrinks.
 */
export const FORMS_TO_MOVE = new Set([]);

/**
 * Components that render the <form> for their caller (catalogue/components/form-dialog.tsx,
 * operations/components/editor-dialog.tsx): the caller hands them a react-hook-form form or a
 * schema, so a caller that checks values itself is a hand-written form in disguise.
 */
export const FORM_SHELLS = ["FormDialog", "EditorDialog"];
const shellRe = new RegExp(`<(?:${FORM_SHELLS.join("|")})[\\s>]`);
/** react-hook-form's zodResolver, or useBodyResolver (admin/components/form-field.tsx) built on it. */
const zodResolverRe = /\b(?:zodResolver|useBodyResolver)(?:<[^()]*?>)?\(/;
const handCheckRe = /\.safeParse\(|\bparseForm\(|\buseSave\(/;

/** The only web modules that import sonner: the wrapper, and the providers that mount its Toaster. */
const SONNER_HOMES = new Set(["src/web/lib/toast.ts", "src/web/app/providers.tsx"]);

/**
 * Where a provider may still be named while it is moved onto the registry (issue 43): nowhere now
 * that the payments module asks the registry too; kept so a move in steps has a place to stand.
 * The list only ever shrinks.
 * @type {Set<string>}
 */
export const PROVIDER_NAMING_ALLOWED = new Set();
/** The folders rule 5 watches. */
const PROVIDER_FREE_AREAS = ["src/server/modules/", "src/web/features/"];
/**
 * Provider names that are another integration's word too ("sandbox" is also the panel's test mode):
 * such a name counts only on a line that speaks of payments.
 */
const SHARED_WORDS = new Set(["sandbox"]);
const paymentWords = /pay|card|checkout|refund|provider/i;

/** The most lines a source file under src/ may have (rule 6). */
export const MAX_LINES = 600;
/** Long by nature and let be: one table list (the database schema) and one body of text (the seed content). */
const LONG_BY_NATURE = new Set(["src/server/db/schema.ts", "src/server/db/seed-content.ts"]);
/**
 * Files still over MAX_LINES: being split (issue 47); this list only shrinks. Once one is split,
 * the check says to take it off, so none can grow back past the limit unnoticed.
 */
export const FILES_TO_SPLIT = new Set([]);
/** The number of lines as `wc -l` counts them (a final newline ends the last line, it does not start one). */
const lineCount = (text) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

/** The provider names src/shared/payment-providers.ts lists (its *_PROVIDER_NAMES arrays), lower case. */
export function providerNames(root) {
  let text;
  try {
    text = readFileSync(path.join(root, "src/shared/payment-providers.ts"), "utf8");
  } catch {
    return [];
  }
  const names = new Set();
  for (const list of text.matchAll(/_PROVIDER_NAMES\s*=\s*\[([^\]]*)\]/g)) {
    for (const name of list[1].matchAll(/["']([\w-]+)["']/g)) names.add(name[1].toLowerCase());
  }
  return [...names];
}

/** Each provider a text names, with the first line that names it (1-based). */
function providersNamed(text, names) {
  const found = [];
  const lines = text.split("\n");
  for (const name of names) {
    const at = lines.findIndex((line) => {
      const lower = line.toLowerCase();
      return lower.includes(name) && (!SHARED_WORDS.has(name) || paymentWords.test(line));
    });
    if (at >= 0) found.push(`${name} (line ${at + 1})`);
  }
  return found;
}

/** Folders whose subfolders are each a unit of their own. */
const UNIT_PARENTS = new Set(["src/web/features", "src/server/modules", "src/server/adapters"]);

function* files(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name)) yield full;
  }
}

/** The unit a file under src/ belongs to, as a path relative to the root ('src/web/features/order'). */
export function unitOf(relative) {
  const parts = relative.split("/");
  const parent = parts.slice(0, 3).join("/");
  if (UNIT_PARENTS.has(parent) && parts.length > 4) return parts.slice(0, 4).join("/");
  // a file directly in src/<area> (app.ts, main.ts) is its area's root: it may reach every folder of it
  return parts.length > 3 ? parent : parts.slice(0, 2).join("/");
}

const posix = (p) => p.split(path.sep).join("/");

/** Rewrites every relative import that leaves its unit as `@/...`; returns how many changed. */
export function fixClimbingImports(root) {
  let changed = 0;
  for (const area of ["web", "server", "shared"]) {
    for (const file of files(path.join(root, "src", area))) {
      const rel = posix(path.relative(root, file));
      const unit = unitOf(rel);
      const text = readFileSync(file, "utf8");
      const fixed = text.replace(/(from\s*|import\s*\(\s*|^\s*import\s*)(["'])(\.{1,2}\/[^"']*)\2/gm, (whole, lead, quote, spec) => {
        const target = posix(path.relative(root, path.resolve(path.dirname(file), spec)));
        if (target === unit || target.startsWith(`${unit}/`)) return whole;
        changed += 1;
        return `${lead}${quote}@/${target.replace(/^src\//, "")}${quote}`;
      });
      if (fixed !== text) writeFileSync(file, fixed);
    }
  }
  return changed;
}

export function checkPatterns(root, { formsToMove = new Set(), providerNamingAllowed = new Set(), filesToSplit = new Set() } = {}) {
  const problems = [];
  const definitions = new Map();
  const names = providerNames(root);
  for (const area of ["web", "server", "shared"]) {
    for (const file of files(path.join(root, "src", area))) {
      const rel = posix(path.relative(root, file));
      const text = readFileSync(file, "utf8");
      const isTest = /\.test\.(ts|tsx)$/.test(rel);

      // 3. relative imports stay inside their unit
      const unit = unitOf(rel);
      for (const m of text.matchAll(importRe)) {
        const spec = m[1] ?? m[2] ?? m[3];
        if (!spec.startsWith(".")) continue;
        const target = posix(path.relative(root, path.resolve(path.dirname(file), spec)));
        if (target !== unit && !target.startsWith(`${unit}/`)) {
          problems.push(`${rel}: the relative import "${spec}" climbs out of ${unit}/: import "@/${target.replace(/^src\//, "")}" instead`);
        }
      }

      // 6. no source file over MAX_LINES
      if (!isTest && !LONG_BY_NATURE.has(rel) && !rel.includes("/migrations/")) {
        const lines = lineCount(text);
        if (lines > MAX_LINES && !filesToSplit.has(rel)) {
          problems.push(`${rel}: ${lines} lines, over ${MAX_LINES}: split it by part into files beside it (issue 47)`);
        }
        if (lines <= MAX_LINES && filesToSplit.has(rel)) {
          problems.push(`${rel}: ${lines} lines now, within ${MAX_LINES}: take it off FILES_TO_SPLIT in scripts/check-patterns.mjs`);
        }
      }

      // 5. no provider named outside the registry
      const allowed = [...providerNamingAllowed].some((dir) => rel === dir || rel.startsWith(`${dir}/`));
      if (!isTest && !allowed && PROVIDER_FREE_AREAS.some((dir) => rel.startsWith(dir))) {
        const named = providersNamed(text, names);
        if (named.length) {
          problems.push(
            `${rel}: names the payment provider ${named.join(", ")}: ask the registry (src/server/adapters/payments/registry.ts), or on the web GET /api/payment-providers (docs/how-to.md, "Add a payment provider")`,
          );
        }
      }

      if (area !== "web" || isTest) continue;

      // 4. toasts through web/lib/toast
      if (!SONNER_HOMES.has(rel) && [...text.matchAll(importRe)].some((m) => (m[1] ?? m[2] ?? m[3]) === "sonner")) {
        problems.push(`${rel}: imports sonner itself: raise toasts with toast from "@/web/lib/toast" (docs/how-to.md)`);
      }

      // 1. query definitions
      for (const m of text.matchAll(queryDefinitionRe)) {
        const key = m[1];
        const seen = definitions.get(key);
        if (seen && seen !== rel) {
          problems.push(
            `${rel}: defines the query ${key} again (also defined in ${seen}): a read several features use lives once, in src/web/lib/queries/`,
          );
        } else definitions.set(key, rel);
      }

      // 2. forms
      const withoutResolver = rel.endsWith(".tsx") && /<form[\s>]/.test(text) && !zodResolverRe.test(text);
      const shellByHand = rel.endsWith(".tsx") && shellRe.test(text) && handCheckRe.test(text);
      const handWritten = withoutResolver || shellByHand;
      if (handWritten && !formsToMove.has(rel)) {
        problems.push(
          withoutResolver
            ? `${rel}: renders a <form> without react-hook-form's zodResolver over a schema in src/shared (docs/how-to.md, "A form")`
            : `${rel}: checks its values by hand (safeParse) for a form it renders through ${text.match(shellRe)[0].slice(1).trim()}: hand the shell the shared schema (useCatalogueForm, EditorDialog's createSchema/patchSchema; docs/how-to.md, "A form")`,
        );
      }
      if (!handWritten && formsToMove.has(rel)) {
        problems.push(`${rel}: its form is on react-hook-form now: take it off FORMS_TO_MOVE in scripts/check-patterns.mjs`);
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const root = path.resolve(args.find((a) => !a.startsWith("--")) ?? path.join(import.meta.dirname, ".."));
  if (args.includes("--fix")) console.log(`Rewrote ${fixClimbingImports(root)} climbing imports as @/...`);
  const problems = checkPatterns(root, {
    formsToMove: FORMS_TO_MOVE,
    providerNamingAllowed: PROVIDER_NAMING_ALLOWED,
    filesToSplit: FILES_TO_SPLIT,
  });
  if (problems.length) {
    console.error(`Pattern check failed (${problems.length}):\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log(
    `Pattern check passed: one definition per query, every form on react-hook-form + zod, no climbing imports, toasts through web/lib/toast, payment providers named only by the registry, no source file over ${MAX_LINES} lines.`,
  );
}
