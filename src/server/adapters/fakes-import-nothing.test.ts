// The fakes our tests run against (PayFast, Ozow, Yoco, iKhokha, the Xtream panel, WhatsApp Cloud)
// stand for someone else's server: each implements its provider's protocol from the provider's
// documentation. A fake that imported our adapter's signing, field lists or helpers would agree
// with any mistake in them, and every test would pass against a bug. So a fake imports Node's
// built-ins (`node:…`) and other fakes (a fakes-only helper such as fake-form-protocol.ts), and
// nothing else: no relative import of another file, no `@/…`, no package. And a fakes-only helper
// is imported by fakes alone.
//
// A fake is a file named fake.ts or fake-*.ts under src/, or any file under tests/fakes/.
// tests/e2e/fake-providers.ts starts the fakes for the browser journey with that journey's keys; it
// is a launcher, not a fake, and is outside this rule.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");

const isFakeName = (file: string) => /^fake(-[\w-]+)?\.(ts|tsx|mts|js|mjs)$/.test(path.basename(file)) && !/\.test\./.test(file);
/** a path relative to the root, with '/' */
function isFake(relative: string): boolean {
  return (relative.startsWith("src/") && isFakeName(relative)) || relative.startsWith("tests/fakes/");
}
const isFakesOnlyHelper = (relative: string) => /^fake-[\w-]+-protocol\.(ts|mts|js|mjs)$/.test(path.basename(relative));

function* sourceFiles(dir: string): Generator<string> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === "node_modules") continue;
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* sourceFiles(full);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(name)) yield full;
  }
}

const specifierRe =
  /(?:^|[;\s])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']|\brequire\s*\(\s*["']([^"']+)["']\s*\)/gm;

/** Every module specifier a source text names (static, side-effect, dynamic and require imports; re-exports). */
function specifiersOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(specifierRe)) found.push(match[1] ?? match[2] ?? match[3] ?? match[4]);
  return found;
}

/** What is wrong with one fake's imports: one line per import that is not Node's or another fake's. */
function fakeImportProblems(relative: string, source: string): string[] {
  const problems: string[] = [];
  for (const spec of specifiersOf(source)) {
    if (spec.startsWith("node:")) continue;
    if (spec.startsWith(".")) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(relative), spec));
      if (isFake(target) || isFake(`${target}.ts`)) continue;
      problems.push(`${relative} imports "${spec}": a fake may import only node:… and other fakes, not our code`);
    } else if (spec.startsWith("@/")) {
      problems.push(`${relative} imports "${spec}": a fake may import only node:… and other fakes, not our code`);
    } else {
      problems.push(`${relative} imports "${spec}": a fake implements its protocol itself (node:… only), not through a package`);
    }
  }
  return problems;
}

/** A non-fake file that imports a fakes-only helper (fake-*-protocol.ts). */
function helperImportProblems(relative: string, source: string): string[] {
  if (isFake(relative)) return [];
  return specifiersOf(source)
    .filter((spec) => (spec.startsWith(".") || spec.startsWith("@/")) && isFakesOnlyHelper(`${spec.replace(/\.(ts|mts|js|mjs)$/, "")}.ts`))
    .map((spec) => `${relative} imports "${spec}": a fake's protocol helper is for fakes only`);
}

const repoFiles = () =>
  ["src", "tests"].flatMap((top) =>
    [...sourceFiles(path.join(ROOT, top))].map((full) => path.relative(ROOT, full).split(path.sep).join("/")),
  );

describe("fakes import nothing of ours", () => {
  it("finds the fakes it guards (so it cannot pass by finding none)", () => {
    const fakes = repoFiles().filter(isFake);
    expect(fakes).toEqual(
      expect.arrayContaining([
        "src/server/adapters/payments/payfast/fake.ts",
        "src/server/adapters/payments/ozow/fake.ts",
        "src/server/adapters/payments/yoco/fake.ts",
        "src/server/adapters/payments/ikhokha/fake.ts",
        "src/server/adapters/payments/fake-form-protocol.ts",
        "src/server/adapters/panel/fake-xtream.ts",
        "src/server/adapters/fake-whatsapp-cloud.ts",
      ]),
    );
    expect(fakes).not.toContain("tests/e2e/fake-providers.ts");
  });

  it("every fake imports only node:… and other fakes", () => {
    const problems = repoFiles()
      .filter(isFake)
      .flatMap((relative) => fakeImportProblems(relative, readFileSync(path.join(ROOT, relative), "utf8")));
    expect(problems).toEqual([]);
  });

  it("a fakes-only protocol helper is imported by fakes alone", () => {
    const problems = repoFiles().flatMap((relative) => helperImportProblems(relative, readFileSync(path.join(ROOT, relative), "utf8")));
    expect(problems).toEqual([]);
  });
});

describe("the rule catches a planted violation", () => {
  const fake = "src/server/adapters/payments/fake-planted.ts";

  it("an adapter's signing, a shared helper, a re-export, a dynamic import, a require, a type-only import and a package are each refused", () => {
    // (spelt in two parts so the repository's own import check does not read it as this file's import)
    const climbing = "../../lib/codes";
    const planted = [
      'import { ozowHash } from "./ozow";',
      'import { phpUrlencode } from "./form-encoding";',
      'import type { HostedProvider } from "./provider";',
      'import { headerValue } from "@/server/adapters/payments/signing";',
      `import { hashCode } from "${climbing}";`,
      'export { yocoSignature } from "./yoco";',
      'const payfast = await import("./payfast");',
      'const { ikSignature } = require("./signing");',
      'import "./sandbox";',
      'import { SMTPServer } from "smtp-server";',
    ];
    const problems = planted.map((line) => fakeImportProblems(fake, line));
    expect(problems.map((p) => p.length)).toEqual(planted.map(() => 1));
    expect(problems[0][0]).toBe(
      'src/server/adapters/payments/fake-planted.ts imports "./ozow": a fake may import only node:… and other fakes, not our code',
    );
  });

  it("Node's built-ins and another fake's helper are allowed", () => {
    const allowed = [
      'import { createHash, randomUUID } from "node:crypto";',
      'import { createServer, type IncomingMessage } from "node:http";',
      'import type { AddressInfo } from "node:net";',
      'import { fakeFormBody } from "./fake-form-protocol";',
      'import { startFakeOzow } from "./fake-ozow";',
    ].join("\n");
    expect(fakeImportProblems(fake, allowed)).toEqual([]);
  });

  it("a file that is not a fake may not import a fakes-only helper", () => {
    expect(
      helperImportProblems("src/server/adapters/payments/ozow.ts", 'import { fakePhpUrlencode } from "./fake-form-protocol";'),
    ).toEqual(['src/server/adapters/payments/ozow.ts imports "./fake-form-protocol": a fake\'s protocol helper is for fakes only']);
    expect(helperImportProblems(fake, 'import { fakeFormBody } from "./fake-form-protocol";')).toEqual([]);
  });
});
