// Dependency rule (run by `npm run lint`): code flows one way.
//  - src/web never imports src/server, and src/server never imports src/web;
//  - src/shared is pure: it imports nothing with I/O (no node:*, no database, no network,
//    no server or web code, no React);
//  - the server's floors: src/server/lib (shared helpers) < src/server/modules (features with
//    routes) < src/server/jobs (timed work, which may call modules). A floor never imports one
//    above it: lib imports neither modules nor jobs, modules do not import jobs. What both need
//    moves down a floor. Tests (*.test.ts) are left out: they drive the whole app, jobs included.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const importRe = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

function* files(dir) {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name)) yield full;
  }
}

function resolveTarget(root, file, spec) {
  if (spec.startsWith("@/")) return path.join(root, "src", spec.slice(2));
  if (spec.startsWith(".")) return path.resolve(path.dirname(file), spec);
  return null; // a package
}

const sharedForbiddenPackages = [
  /^node:/,
  /^(fs|path|http|https|net|child_process|crypto|os|url|stream|events|zlib)$/,
  /^pg$/,
  /^@electric-sql\//,
  /^drizzle-orm/,
  /^fastify/,
  /^@fastify\//,
  /^nodemailer/,
  /^react/,
  /^@tanstack\//,
];
/** src/server's floors, lowest first: a file may import its own floor and those below. */
const serverFloors = ["lib", "modules", "jobs"];
const floorOf = (root, full) => {
  const [area, floor] = path.relative(path.join(root, "src"), full).split(path.sep);
  return area === "server" ? serverFloors.indexOf(floor) : -1;
};
/** Where the shared piece may go instead: the importer's floor or one below it. */
const moveDown = (from) =>
  `move what both need down to ${serverFloors
    .slice(0, from + 1)
    .reverse()
    .map((floor) => `src/server/${floor}`)
    .join(" or ")}`;
const isTest = (file) => /\.test\.tsx?$/.test(file);

/** Every import that crosses a boundary, as "file: rule (import)", for the tree at `root`. */
export function checkBoundaries(root) {
  const problems = [];
  for (const area of ["web", "server", "shared"]) {
    for (const file of files(path.join(root, "src", area))) {
      const text = readFileSync(file, "utf8");
      for (const m of text.matchAll(importRe)) {
        const spec = m[1] ?? m[2] ?? m[3];
        const target = resolveTarget(root, file, spec);
        const rel = path.relative(root, file);
        const targetArea = target ? path.relative(path.join(root, "src"), target).split(path.sep)[0] : null;
        if (area === "web" && targetArea === "server") problems.push(`${rel}: src/web must not import src/server (${spec})`);
        if (area === "server" && targetArea === "web") problems.push(`${rel}: src/server must not import src/web (${spec})`);
        if (area === "server" && target && !isTest(file)) {
          const from = floorOf(root, file);
          const to = floorOf(root, target);
          if (from >= 0 && to > from)
            problems.push(
              `${rel}: src/server/${serverFloors[from]} must not import src/server/${serverFloors[to]} (${spec}); ${moveDown(from)}`,
            );
        }
        if (area === "shared") {
          if (targetArea && targetArea !== "shared") problems.push(`${rel}: src/shared must not import src/${targetArea} (${spec})`);
          if (!target && sharedForbiddenPackages.some((re) => re.test(spec)))
            problems.push(`${rel}: src/shared must stay free of I/O (${spec})`);
        }
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = checkBoundaries(path.resolve(import.meta.dirname, ".."));
  if (problems.length) {
    console.error(`Boundary check failed:\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log("Boundary check passed: web ↛ server, server ↛ web, shared is pure, server lib ↛ modules ↛ jobs.");
}
