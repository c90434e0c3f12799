import { describe, expect, it } from "vitest";
import { isValidEmail, isValidPhone, MIN_PHONE_DIGITS, validateInstructionContact } from "./contact";

describe("isValidPhone — spec §5/§9: at least 9 digits after stripping non-digits", () => {
  it("uses the spec's minimum of 9", () => {
    expect(MIN_PHONE_DIGITS).toBe(9);
  });

  it.each([
    ["821234567", true], // exactly 9
    ["82123456", false], // 8
    ["082 123 4567", true],
    ["+27 82 123 4567", true],
    ["(082)-123", false],
    ["phone: 0821234567", true],
    ["", false],
  ])("%j → %s", (input, ok) => {
    expect(isValidPhone(input)).toBe(ok);
  });
});

describe("isValidEmail — a simple x@y.z pattern", () => {
  it.each([
    ["thabo@example.co.za", true],
    ["first.last+iptv@mail.example.com", true],
    ["o'brien@example.ie", true],
    ["  padded@example.com  ", true],
    ["no-at-sign.example.com", false],
    ["two@@example.com", false],
    ["missing@tld", false],
    ["spaces in@example.com", false],
    ["dot@.example.com", false],
    ["", false],
  ])("%j → %s", (input, ok) => {
    expect(isValidEmail(input)).toBe(ok);
  });

  it("refuses addresses longer than 254 characters", () => {
    expect(isValidEmail(`${"a".repeat(250)}@example.com`)).toBe(false);
  });
});

describe("validateInstructionContact — spec §5 messages", () => {
  it.each([
    ["whatsapp", "", "Please enter contact information"],
    ["email", "   ", "Please enter contact information"],
    ["whatsapp", "12345678", "Please enter a valid phone number"],
    ["whatsapp", "082 123 4567", null],
    ["email", "not-an-email", "Please enter a valid email address"],
    ["email", "thabo@example.co.za", null],
    // each channel checks its own kind of contact
    ["email", "0821234567", "Please enter a valid email address"],
    ["whatsapp", "thabo@example.co.za", "Please enter a valid phone number"],
  ] as const)("%s %j → %j", (type, contact, message) => {
    expect(validateInstructionContact(type, contact)).toBe(message);
  });
});
