// The README is what a newcomer trusts first: these checks hold it to the code it describes.
// The configuration table against the variables src/server/config.ts reads (and their defaults),
// the links against docs/, the decisions list against docs/decisions/.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { configSchema } from "@/server/config";

const root = path.resolve(import.meta.dirname, "..");
const readme = readFileSync(path.join(root, "README.md"), "utf8");
const configSource = readFileSync(path.join(root, "src/server/config.ts"), "utf8");

/** The README's part under `## title`, up to the next `## `. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start, `README has a "## ${title}" section`).toBeGreaterThan(-1);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}

/** The variables config.ts reads: the keys of its schema object, as written in the source. */
function variablesInConfigSource(): string[] {
  const body = configSource.slice(configSource.indexOf("export const configSchema"), configSource.indexOf(".superRefine("));
  return [...body.matchAll(/^ {4}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1] as string);
}

/** Configuration table rows: variable → its default cell. */
function configurationRows(): Map<string, string> {
  const rows = new Map<string, string>();
  for (const line of section("Configuration").split("\n")) {
    const cells = line.match(/^\| `([A-Z][A-Z0-9_]*)` \|(.*?)\|/);
    if (cells) rows.set(cells[1] as string, (cells[2] as string).trim());
  }
  return rows;
}

describe("README configuration table", () => {
  it("reads the variables from config.ts's source as the schema has them", () => {
    // The source reading below is what the next test trusts; the schema itself says it is whole.
    expect(variablesInConfigSource().sort()).toEqual(Object.keys(configSchema.shape).sort());
  });

  it("lists every variable config.ts reads, and none it does not", () => {
    const rows = configurationRows();
    const missing = variablesInConfigSource().filter((name) => !rows.has(name));
    expect(missing, `missing from the README's configuration table: ${missing.join(", ")}`).toEqual([]);
    const unknown = [...rows.keys()].filter((name) => !variablesInConfigSource().includes(name));
    expect(unknown, `in the README's table but not read by config.ts: ${unknown.join(", ")}`).toEqual([]);
  });

  it("gives each variable's real default where config.ts has one", () => {
    const defaults = configSchema.parse({}) as Record<string, unknown>;
    const rows = configurationRows();
    const wrong = Object.entries(defaults)
      .filter(([name, value]) => value !== undefined && !rows.get(name)?.includes(`\`${value}\``))
      .map(([name, value]) => `${name} (config.ts: ${value}; README: ${rows.get(name)})`);
    expect(wrong, `README defaults differ from config.ts: ${wrong.join("; ")}`).toEqual([]);
  });

  it("groups the table: general, database, payments, panel, WhatsApp, limits", () => {
    const headings = [...section("Configuration").matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(["General", "Database", "Payments", "Panel", "WhatsApp", "Limits"]);
  });
});

/** Targets of the README's relative markdown links. */
const links = () => [...readme.matchAll(/\]\(((?!https?:|#)[^)\s]+)\)/g)].map((m) => m[1] as string);

describe("README links and decisions", () => {
  it("links every document in docs/ and the decisions folder, and every link it has leads somewhere", () => {
    const docs = readdirSync(path.join(root, "docs"), { withFileTypes: true }).map((entry) =>
      entry.isDirectory() ? `docs/${entry.name}/` : `docs/${entry.name}`,
    );
    const unlinked = docs.filter((doc) => !links().includes(doc));
    expect(unlinked, `docs the README does not link: ${unlinked.join(", ")}`).toEqual([]);
    const broken = links().filter((target) => !existsSync(path.join(root, target)));
    expect(broken, `README links to nothing: ${broken.join(", ")}`).toEqual([]);
  });

  it("lists every decision note, in order", () => {
    const notes = readdirSync(path.join(root, "docs/decisions"))
      .filter((name) => /^\d{3}-.*\.md$/.test(name))
      .sort();
    expect(notes.length).toBeGreaterThanOrEqual(12);
    const listed = links()
      .filter((target) => /^docs\/decisions\/\d{3}-/.test(target))
      .map((target) => target.slice("docs/decisions/".length));
    expect(listed).toEqual(notes);
    for (const note of notes) {
      expect(section("Decisions"), note).toContain(`](docs/decisions/${note})`);
    }
  });

  it("still starts with the two commands", () => {
    const blocks = [...readme.matchAll(/```sh\n([^`]*)```/g)].map((m) => (m[1] as string).trim());
    expect(blocks.slice(0, 2)).toEqual(["npm install && npm start", "npm install && npm test"]);
    expect(readme.indexOf("```sh\nnpm install && npm start")).toBeLessThan(readme.indexOf("\n## "));
  });
});

describe("README on the tests", () => {
  it("says how long npm test and the browser tests take, and quotes the line a run without PostgreSQL ends with", () => {
    const top = readme.slice(0, readme.indexOf("\n## "));
    expect(top).toMatch(/about 5 minutes on two cores/);
    expect(top).toMatch(/browser tests .* about 10\s+minutes/s);
    const vitestConfig = readFileSync(path.join(root, "vitest.config.ts"), "utf8");
    const line = vitestConfig.match(/POSTGRES_SKIPPED = "([^"]+)"/)?.[1] as string;
    expect(line).toBeTruthy();
    expect(top.replace(/\s+/g, " ")).toContain(line);
  });
});
