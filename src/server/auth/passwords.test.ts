import { describe, expect, it } from "vitest";
import { generatePassword, hashPassword, verifyPassword } from "./passwords";

describe("password hashing", () => {
  it("verifies the password it hashed, and stores no clear text", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(stored).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
    expect(stored).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
  });

  it("rejects a wrong password, a near miss and a malformed hash", async () => {
    const stored = await hashPassword("s3cret-Passw0rd");
    expect(await verifyPassword("wrong password", stored)).toBe(false);
    expect(await verifyPassword("s3cret-passw0rd", stored)).toBe(false);
    expect(await verifyPassword("s3cret-Passw0rd ", stored)).toBe(false);
    expect(await verifyPassword("s3cret-Passw0rd", "plain-text-in-the-database")).toBe(false);
  });

  it("salts every hash: two hashes of one password differ and both verify", async () => {
    const a = await hashPassword("same password");
    const b = await hashPassword("same password");
    expect(a).not.toBe(b);
    expect(await verifyPassword("same password", a)).toBe(true);
    expect(await verifyPassword("same password", b)).toBe(true);
  });

  it("generates random readable passwords without look-alike characters", () => {
    const passwords = Array.from({ length: 50 }, () => generatePassword());
    expect(new Set(passwords).size).toBe(50);
    for (const p of passwords) expect(p).toMatch(/^[a-km-np-zA-HJ-NP-Z2-9]{16}$/);
    expect(generatePassword(24)).toHaveLength(24);
  });
});
