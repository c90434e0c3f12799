// The pattern rules (scripts/check-patterns.mjs) on planted violations: each rule fails on a
// small tree that breaks it and passes once it is written the one way.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { checkPatterns, FILES_TO_SPLIT, fixClimbingImports, MAX_LINES, providerNames, unitOf } from "./check-patterns.mjs";

let root = "";
function tree(files: Record<string, string>): string {
  root = mkdtempSync(path.join(tmpdir(), "patterns-"));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}
afterEach(() => rmSync(root, { recursive: true, force: true }));

const query = (key: string) =>
  `import { queryOptions } from "@tanstack/react-query";\nexport const q = () => queryOptions({ queryKey: ${key}, queryFn: () => [] });\n`;

describe("check-patterns", () => {
  it("fails on a query key defined in two files, and passes with one definition", () => {
    const twice = tree({
      "src/web/lib/queries/settings.ts": query("queryKeys.settings"),
      "src/web/features/order/api/get-settings.ts": query("queryKeys.settings"),
    });
    const problems = checkPatterns(twice) as string[];
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("defines the query queryKeys.settings again");
    for (const file of ["src/web/lib/queries/settings.ts", "src/web/features/order/api/get-settings.ts"])
      expect(problems[0]).toContain(file);
    rmSync(path.join(twice, "src/web/features/order/api/get-settings.ts"));
    expect(checkPatterns(twice)).toEqual([]);
  });

  it("fails on a form without react-hook-form's zod resolver, and passes with one", () => {
    const handWritten = `export function F() { const [v, setV] = useState(""); return <form onSubmit={() => schema.safeParse(v)}><input /></form>; }\n`;
    const withResolver = `const form = useForm({ resolver: zodResolver(schema) });\nexport function F() { return <form onSubmit={form.handleSubmit(save)}><input /></form>; }\n`;
    const dir = tree({ "src/web/features/support/contact-form.tsx": handWritten });
    expect(checkPatterns(dir)).toEqual([
      expect.stringContaining("contact-form.tsx: renders a <form> without react-hook-form's zodResolver"),
    ]);
    writeFileSync(path.join(dir, "src/web/features/support/contact-form.tsx"), withResolver);
    expect(checkPatterns(dir)).toEqual([]);
    // the dashboard's resolver over the body the values become is built on zodResolver
    const withBodyResolver = `export function F() { const form = useForm({ resolver: useBodyResolver<V>(schema, bodyOf) }); return <form onSubmit={form.handleSubmit(save)}><input /></form>; }\n`;
    writeFileSync(path.join(dir, "src/web/features/support/contact-form.tsx"), withBodyResolver);
    expect(checkPatterns(dir)).toEqual([]);
  });

  it("fails on a form checked by hand that renders through a form shell, and passes when the shell is handed the schema", () => {
    const byHand = `export function BannerForm() {\n  const [values] = useState(initial);\n  const submit = () => { const parsed = bannerInputSchema.safeParse(values); if (parsed.success) send(parsed.data); };\n  return (\n    <FormDialog\n      title="New banner" onSubmit={submit}>\n      <input />\n    </FormDialog>\n  );\n}\n`;
    const handed = `export function BannerForm() {\n  const { register, ...form } = useCatalogueForm({ resource: "banners", initial, schema: bannerInputSchema });\n  return <FormDialog form={form} title="New banner"><input {...register("title")} /></FormDialog>;\n}\n`;
    const file = "src/web/features/admin/catalogue/banners/banners-section.tsx";
    const dir = tree({ [file]: byHand });
    expect(checkPatterns(dir)).toEqual([
      expect.stringContaining(`${file}: checks its values by hand (safeParse) for a form it renders through FormDialog`),
    ]);
    // still listed as one to move, it is tolerated
    expect(checkPatterns(dir, { formsToMove: new Set([file]) })).toEqual([]);
    writeFileSync(path.join(dir, file), handed);
    expect(checkPatterns(dir)).toEqual([]);
  });

  it("fails on a web module that imports sonner itself, and passes once it raises toasts through web/lib/toast", () => {
    const own = tree({
      "src/web/lib/toast.ts": `export const toast = { success() { void import("sonner"); } };\n`,
      "src/web/app/providers.tsx": `const Toaster = lazy(() => import("sonner"));\n`,
      "src/web/features/order/order-form.tsx": `import { toast } from "sonner";\nexport const done = () => toast.success("Saved");\n`,
    });
    const problems = checkPatterns(own) as string[];
    expect(problems).toEqual([
      'src/web/features/order/order-form.tsx: imports sonner itself: raise toasts with toast from "@/web/lib/toast" (docs/how-to.md)',
    ]);
    writeFileSync(
      path.join(own, "src/web/features/order/order-form.tsx"),
      `import { toast } from "@/web/lib/toast";\nexport const done = () => toast.success("Saved");\n`,
    );
    expect(checkPatterns(own)).toEqual([]);
  });

  it("fails on a relative import that climbs out of its unit, and --fix rewrites it as @/", () => {
    const dir = tree({
      "src/server/modules/orders/routes.ts": `import { enforce } from "../../lib/rate-limit";\nimport { messages } from "./messages";\n`,
      "src/server/modules/orders/messages.ts": `export const messages = {};\n`,
      "src/server/lib/rate-limit.ts": `import { x } from "./x";\nexport const enforce = x;\n`,
      "src/server/lib/x.ts": `export const x = 1;\n`,
      "src/web/features/admin/leads/drawer.tsx": `import { format } from "../components/format";\n`,
      "src/web/features/admin/components/format.ts": `export const format = 1;\n`,
    });
    expect(checkPatterns(dir)).toEqual([
      'src/server/modules/orders/routes.ts: the relative import "../../lib/rate-limit" climbs out of src/server/modules/orders/: import "@/server/lib/rate-limit" instead',
    ]);
    expect(fixClimbingImports(dir)).toBe(1);
    expect(readFileSync(path.join(dir, "src/server/modules/orders/routes.ts"), "utf8")).toBe(
      `import { enforce } from "@/server/lib/rate-limit";\nimport { messages } from "./messages";\n`,
    );
    expect(checkPatterns(dir)).toEqual([]);
  });

  it("fails on a server module or web feature that names a payment provider, and passes once it asks the registry", () => {
    const names = `export const CARD_PROVIDER_NAMES = ["acmepay", "sandbox"] as const;\nexport const HOSTED_PROVIDER_NAMES = ["zapcash"] as const;\n`;
    const dir = tree({
      "src/shared/payment-providers.ts": names,
      // a label written in a page, and a provider's words in a server module's comment
      "src/web/features/admin/payments/labels.ts": `export const LABELS = { zapcash: "ZapCash" };\n`,
      "src/server/modules/billing/messages.ts": `// AcmePay pays it back to the card.\nexport const how = "";\n`,
      // the payment sense of a word the panel uses too; and the panel's own sense, which is fine
      "src/web/features/pricing/note.tsx": `export const note = (card: string) => card === "sandbox";\n`,
      "src/server/modules/panel/mode.ts": `export const test = (mode: string) => mode === "sandbox";\n`,
      // outside the watched folders (the adapter, the shared list, tests) a provider may be named
      "src/server/adapters/payments/zapcash.ts": `export const name = "zapcash";\n`,
      "src/web/features/admin/payments/labels.test.ts": `it("labels zapcash", () => {});\n`,
      // the payments module, while it is on the allow-list
      "src/server/modules/payments/service.ts": `if (name === "acmepay") {}\n`,
    });
    expect(providerNames(dir)).toEqual(["acmepay", "sandbox", "zapcash"]);
    const allowed = { providerNamingAllowed: new Set(["src/server/modules/payments"]) };
    expect((checkPatterns(dir, allowed) as string[]).sort()).toEqual([
      expect.stringContaining("src/server/modules/billing/messages.ts: names the payment provider acmepay (line 1)"),
      expect.stringContaining("src/web/features/admin/payments/labels.ts: names the payment provider zapcash (line 1)"),
      expect.stringContaining("src/web/features/pricing/note.tsx: names the payment provider sandbox (line 1)"),
    ]);
    // off the allow-list, the payments module is held to it too
    expect(checkPatterns(dir)).toEqual(
      expect.arrayContaining([expect.stringContaining("src/server/modules/payments/service.ts: names the payment provider acmepay")]),
    );
    // asking the registry instead
    writeFileSync(path.join(dir, "src/web/features/admin/payments/labels.ts"), `export const label = (p: Info) => p.label;\n`);
    writeFileSync(
      path.join(dir, "src/server/modules/billing/messages.ts"),
      `// The provider's own sentence, from the registry.\nexport const how = "";\n`,
    );
    writeFileSync(path.join(dir, "src/web/features/pricing/note.tsx"), `export const note = (card?: Info) => card?.test === true;\n`);
    expect(checkPatterns(dir, allowed)).toEqual([]);
  });

  it("fails on a source file over 600 lines, passes at 600, and lets tests, migrations, the schema and the seed content be", () => {
    expect(MAX_LINES).toBe(600);
    const lines = (n: number) => "export const x = 1;\n".repeat(n);
    const long = "src/web/features/pricing/pay-review-dialog.tsx";
    const dir = tree({
      [long]: lines(601),
      "src/shared/schemas.ts": lines(600),
      "src/web/features/pricing/pay-review-dialog.test.tsx": lines(900),
      "src/server/db/schema.ts": lines(1400),
      "src/server/db/seed-content.ts": lines(700),
      "src/server/db/migrations/0001_init.ts": lines(700),
      // the same length in lines without a final newline
      "src/server/lib/outbox.ts": `${lines(599)}export const y = 2;`,
    });
    expect(checkPatterns(dir)).toEqual([`${long}: 601 lines, over 600: split it by part into files beside it (issue 47)`]);
    // while it is being split, a listed file is tolerated; once split, the list must shrink
    expect(checkPatterns(dir, { filesToSplit: new Set([long]) })).toEqual([]);
    writeFileSync(path.join(dir, long), lines(300));
    expect(checkPatterns(dir)).toEqual([]);
    expect(checkPatterns(dir, { filesToSplit: new Set([long]) })).toEqual([
      `${long}: 300 lines now, within 600: take it off FILES_TO_SPLIT in scripts/check-patterns.mjs`,
    ]);
  });

  it("on this repository, the files over 600 lines are exactly the ones FILES_TO_SPLIT lists", () => {
    const root = path.join(import.meta.dirname, "..");
    const overLimit = (checkPatterns(root) as string[]).filter((p) => p.includes(`lines, over ${MAX_LINES}`));
    expect(overLimit.map((p) => p.split(":")[0]).sort()).toEqual([...FILES_TO_SPLIT].sort());
  });

  it("knows the units: a feature, a server module, an adapter, else a top-level folder", () => {
    expect(unitOf("src/web/features/admin/leads/drawer.tsx")).toBe("src/web/features/admin");
    expect(unitOf("src/server/modules/payments/service.ts")).toBe("src/server/modules/payments");
    expect(unitOf("src/server/adapters/panel/xtream.ts")).toBe("src/server/adapters/panel");
    expect(unitOf("src/server/lib/outbox.ts")).toBe("src/server/lib");
    expect(unitOf("src/server/app.ts")).toBe("src/server");
    expect(unitOf("src/shared/money.ts")).toBe("src/shared");
  });
});
