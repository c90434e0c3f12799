// Vitest global setup: migrate one PGlite once and dump it; every API test file then loads the
// dump (≈0.5 s) instead of initialising and migrating its own database (≈3 s).
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { dumpMigratedPglite } from "@/server/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const file = path.join(os.tmpdir(), `streamdesk-pglite-template-${process.pid}.tar`);
  const blob = await dumpMigratedPglite();
  writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  project.provide("pgliteTemplate", file);
}
