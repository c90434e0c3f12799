// The first admin (docs/architecture.md, "Sessions"): from ADMIN_EMAIL/ADMIN_PASSWORD, or a random password
// returned once; never a built-in default, never a clear-text password in the database.
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { admins } from "@/server/db/schema";
import { openTestDatabase, type TestDatabase } from "@/server/testing";
import { ensureAdmin, resetFirstAdminPassword } from "./bootstrap-admin";
import { verifyPassword } from "./passwords";
import { createSession, findSession } from "./sessions";

describe("ensureAdmin", () => {
  let database: TestDatabase;
  let db: Db;
  beforeEach(async () => {
    database = await openTestDatabase();
    db = database.db;
  });
  afterEach(async () => {
    await database.close();
  });

  it("creates the admin from ADMIN_EMAIL and ADMIN_PASSWORD, with the password hashed", async () => {
    const result = await ensureAdmin(db, "Owner@Example.co.za", "a-long-admin-password");
    expect(result).toEqual({ created: true, email: "owner@example.co.za", generatedPassword: undefined });
    const rows = await db.select().from(admins);
    expect(rows).toHaveLength(1);
    expect(rows[0].email).toBe("owner@example.co.za");
    expect(rows[0].password_hash).not.toContain("a-long-admin-password");
    expect(await verifyPassword("a-long-admin-password", rows[0].password_hash)).toBe(true);
  });

  it("generates a random password when none is set, returns it once and stores only its hash", async () => {
    const result = await ensureAdmin(db);
    expect(result.created).toBe(true);
    expect(result.email).toBe("admin@streamdesk.local");
    const password = result.generatedPassword as string;
    expect(password).toMatch(/^\S{16}$/);

    const [row] = await db.select().from(admins).where(eq(admins.email, "admin@streamdesk.local"));
    expect(row.password_hash).not.toBe(password);
    expect(row.password_hash).not.toContain(password);
    expect(await verifyPassword(password, row.password_hash)).toBe(true);
    expect(await verifyPassword("admin", row.password_hash)).toBe(false);

    // A second start does not hand out (or change) a password again.
    const again = await ensureAdmin(db);
    expect(again).toEqual({ created: false });
    const [still] = await db.select().from(admins);
    expect(still.password_hash).toBe(row.password_hash);
  });

  it("generates a different password on each new shop", async () => {
    const other = await openTestDatabase();
    try {
      const a = await ensureAdmin(db);
      const b = await ensureAdmin(other.db);
      expect(a.generatedPassword).not.toBe(b.generatedPassword);
    } finally {
      await other.close();
    }
  });

  it("does nothing when an admin exists: no new account, no password change", async () => {
    await ensureAdmin(db, "owner@example.co.za", "the-first-password");
    const [before] = await db.select().from(admins);

    expect(await ensureAdmin(db)).toEqual({ created: false });
    // The same ADMIN_EMAIL with another ADMIN_PASSWORD on a later start must not reset it.
    expect(await ensureAdmin(db, "owner@example.co.za", "a-different-password")).toEqual({ created: false });

    const rows = await db.select().from(admins);
    expect(rows).toHaveLength(1);
    expect(rows[0].password_hash).toBe(before.password_hash);
    expect(await verifyPassword("the-first-password", rows[0].password_hash)).toBe(true);
  });

  it("resetFirstAdminPassword: the first admin gets a new random password, the old one and its sessions stop working", async () => {
    await ensureAdmin(db, "owner@example.co.za", "the-first-password");
    await ensureAdmin(db, "second@example.co.za", "the-second-password");
    const [owner] = await db.select().from(admins).where(eq(admins.email, "owner@example.co.za"));
    const { token } = await createSession(db, { kind: "admin", adminId: owner.id, ttlHours: 12 });

    const reset = await resetFirstAdminPassword(db);
    expect(reset?.email).toBe("owner@example.co.za");
    expect(reset?.password).toMatch(/^\S{16}$/);
    const [after] = await db.select().from(admins).where(eq(admins.email, "owner@example.co.za"));
    expect(after.password_hash).not.toContain(reset?.password);
    expect(await verifyPassword(reset?.password as string, after.password_hash)).toBe(true);
    expect(await verifyPassword("the-first-password", after.password_hash)).toBe(false);
    expect(await findSession(db, token, "admin")).toBeNull();
    // Only the first admin: the others keep theirs.
    const [second] = await db.select().from(admins).where(eq(admins.email, "second@example.co.za"));
    expect(await verifyPassword("the-second-password", second.password_hash)).toBe(true);
    // Each run a new one.
    expect((await resetFirstAdminPassword(db))?.password).not.toBe(reset?.password);
  });

  it("resetFirstAdminPassword on a shop with no admin yet changes nothing", async () => {
    expect(await resetFirstAdminPassword(db)).toBeNull();
    expect(await db.select().from(admins)).toHaveLength(0);
  });
});
