// GET /api/admin/backup: the owner downloads a backup of the embedded database from the running
// shop; `npm run restore` brings it back. On PostgreSQL it says to use pg_dump instead.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restore } from "@/server/db/backup";
import { openDatabase } from "@/server/db/client";
import { auditLog, packages } from "@/server/db/schema";
import { type SignedIn, signInAdmin } from "@/server/modules/admin-business/test-admin";
import { createTestApp, onPostgres, type TestApp } from "@/server/testing";
import { POSTGRES_BACKUP_MESSAGE } from "./routes";

let t: TestApp;
let admin: SignedIn;
let work: string;

beforeAll(async () => {
  t = await createTestApp({}, { seed: false });
  admin = await signInAdmin(t.app);
  work = mkdtempSync(path.join(tmpdir(), "streamdesk-online-backup-"));
});
afterAll(async () => {
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("GET /api/admin/backup", () => {
  it("needs an admin", async () => {
    expect((await t.app.inject({ method: "GET", url: "/api/admin/backup" })).statusCode).toBe(401);
  });

  it("says which database the shop runs on, so the dashboard offers the right way", async () => {
    const info = await admin.call({ method: "GET", url: "/api/admin/backup/info" });
    expect(info.json().data).toEqual({ database: onPostgres() ? "postgres" : "pglite" });
  });

  it.skipIf(onPostgres())("downloads the running database, which restore brings back; audited", { timeout: 90_000 }, async () => {
    await t.app.db.insert(packages).values({ name: "Backed up while running", price: 123, duration: "1 Month" });
    const response = await admin.call({ method: "GET", url: "/api/admin/backup" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/gzip");
    expect(response.headers["content-disposition"]).toMatch(/attachment; filename="streamdesk-backup-\d{4}-\d\d-\d\d\.tar\.gz"/);
    const file = path.join(work, "online.tar.gz");
    writeFileSync(file, response.rawPayload);

    const dataDir = path.join(work, "restored");
    await restore({ dataDir }, file);
    const restored = await openDatabase({ dataDir });
    try {
      const names = (await restored.db.select({ name: packages.name }).from(packages)).map((r) => r.name);
      expect(names).toContain("Backed up while running");
    } finally {
      await restored.close();
    }
    const actions = (await t.app.db.select({ action: auditLog.action }).from(auditLog)).map((r) => r.action);
    expect(actions).toContain("backup");
  });

  it.skipIf(!onPostgres())("on PostgreSQL, says to use pg_dump", async () => {
    const response = await admin.call({ method: "GET", url: "/api/admin/backup" });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.message).toBe(POSTGRES_BACKUP_MESSAGE);
  });
});
