import { describe, expect, it } from "vitest";
import { configurePasswordCost, generatePassword, hashPassword, needsRehash, verifyPassword } from "./passwords";

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

  it("hashes at OWASP's cost by default (N = 2^17, r = 8, p = 1) and asks to rehash anything cheaper", async () => {
    const stored = await hashPassword("owasp cost");
    expect(stored.split("$").slice(0, 4)).toEqual(["scrypt", "131072", "8", "1"]);
    expect(needsRehash(stored)).toBe(false);
    expect(await verifyPassword("owasp cost", stored)).toBe(true);

    configurePasswordCost(14);
    const cheap = await hashPassword("old account");
    expect(cheap.split("$")[1]).toBe("16384");
    configurePasswordCost(17);
    expect(needsRehash(cheap)).toBe(true);
    // an older hash still verifies: the rehash happens after a successful sign-in
    expect(await verifyPassword("old account", cheap)).toBe(true);
    expect(needsRehash("plain-text-in-the-database")).toBe(true);
  });

  it("refuses to run a stored cost outside 2^10..2^20 (a forged hash cannot make a sign-in run for minutes)", async () => {
    const stored = await hashPassword("x");
    const forged = stored.replace("$131072$", `$${2 ** 24}$`);
    expect(await verifyPassword("x", forged)).toBe(false);
    expect(() => configurePasswordCost(12)).toThrow(/14/);
  });
});
