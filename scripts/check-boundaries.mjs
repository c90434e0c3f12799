// Dependency rule (run by `npm run lint`): code flows one way.
//  - src/web never imports src/server, and src/server never imports src/web;
//  - src/shared is pure: it imports nothing with I/O (no node:*, no database, no network,
//    no server or web code, no React).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const importRe = /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name)) yield full;
  }
}

function resolveTarget(file, spec) {
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
const problems = [];
for (const area of ["web", "server", "shared"]) {
  for (const file of files(path.join(root, "src", area))) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(importRe)) {
      const spec = m[1] ?? m[2] ?? m[3];
      const target = resolveTarget(file, spec);
      const rel = path.relative(root, file);
      const targetArea = target ? path.relative(path.join(root, "src"), target).split(path.sep)[0] : null;
      if (area === "web" && targetArea === "server") problems.push(`${rel}: src/web must not import src/server (${spec})`);
      if (area === "server" && targetArea === "web") problems.push(`${rel}: src/server must not import src/web (${spec})`);
      if (area === "shared") {
        if (targetArea && targetArea !== "shared") problems.push(`${rel}: src/shared must not import src/${targetArea} (${spec})`);
        if (!target && sharedForbiddenPackages.some((re) => re.test(spec)))
          problems.push(`${rel}: src/shared must stay free of I/O (${spec})`);
      }
    }
  }
}
if (problems.length) {
  console.error(`Boundary check failed:\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log("Boundary check passed: web ↛ server, server ↛ web, shared is pure.");
