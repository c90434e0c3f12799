import { describe, expect, it } from "vitest";
import { isValidEmail, isValidPhone, MIN_PHONE_DIGITS, mailboxKey, validateInstructionContact } from "./contact";

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

describe("mailboxKey — one trial per mailbox, however the address is spelled (issue 46 item 3)", () => {
  it.each([
    // the probe's pair: one Gmail mailbox, two spellings
    ["a.b+1@gmail.com", "ab@gmail.com"],
    ["ab@gmail.com", "ab@gmail.com"],
    ["  A.B@Gmail.COM ", "ab@gmail.com"],
    ["a.b+iptv@googlemail.com", "ab@gmail.com"],
    ["ab@googlemail.com", "ab@gmail.com"],
    // +tags dropped where the provider delivers them to the same mailbox; dots kept there
    ["thabo.m+trial@outlook.com", "thabo.m@outlook.com"],
    ["thabo+x@hotmail.com", "thabo@hotmail.com"],
    ["thabo+x@live.com", "thabo@live.com"],
    ["thabo+x@icloud.com", "thabo@icloud.com"],
    ["thabo+x@me.com", "thabo@me.com"],
    ["thabo+x@protonmail.com", "thabo@protonmail.com"],
    ["thabo+x@proton.me", "thabo@proton.me"],
    ["thabo+x@fastmail.com", "thabo@fastmail.com"],
    // Yahoo tags with '-', an ordinary character there too: left alone
    ["thabo-x@yahoo.com", "thabo-x@yahoo.com"],
    ["thabo+x@yahoo.com", "thabo+x@yahoo.com"],
    // other domains: lower case only (a '+' or '.' may be a different mailbox there)
    ["First.Last+iptv@Example.co.za", "first.last+iptv@example.co.za"],
    ["a.b@outlook.com", "a.b@outlook.com"],
    // nothing left of the name: kept as typed, not merged with others
    ["+x@gmail.com", "+x@gmail.com"],
    ["", ""],
  ])("%j → %j", (input, key) => {
    expect(mailboxKey(input)).toBe(key);
  });
});
