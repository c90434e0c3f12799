import { describe, expect, it } from "vitest";
import {
  buildWhatsAppLink,
  DEFAULT_COUNTRY_CODE,
  formatPhoneForDisplay,
  isValidWhatsAppLink,
  normaliseWhatsAppNumber,
  WHATSAPP_BASE_URL,
} from "./whatsapp";

describe("normaliseWhatsAppNumber — spec §5", () => {
  it("defaults to South Africa's 27", () => {
    expect(DEFAULT_COUNTRY_CODE).toBe("27");
  });

  it.each([
    ["0821234567", "27821234567", "starts with 0: the 0 becomes 27"],
    ["082 123 4567", "27821234567", "spaces stripped"],
    ["(082) 123-4567", "27821234567", "brackets and dashes stripped"],
    ["27821234567", "27821234567", "starts with 27: kept"],
    ["+27 82 123 4567", "27821234567", "'+' stripped, 27 kept"],
    ["821234567", "27821234567", "anything else: 27 prefixed"],
    ["0027821234567", "27821234567", "the international prefix 00 dropped (not in the spec)"],
    ["0044 20 7946 0958", "442079460958", "a foreign number after 00 keeps its own code"],
    ["", "", "nothing typed"],
    ["abc", "", "no digits"],
  ])("%j → %j (%s)", (input, digits) => {
    expect(normaliseWhatsAppNumber(input)).toBe(digits);
  });
});

describe("buildWhatsAppLink", () => {
  it.each([
    ["0821234567", undefined, "https://wa.me/27821234567"],
    ["0821234567", "", "https://wa.me/27821234567"],
    ["+27 82 123 4567", "Hi there", "https://wa.me/27821234567?text=Hi%20there"],
    ["821234567", "Order: 3 Months & R1,650?\nThanks", "https://wa.me/27821234567?text=Order%3A%203%20Months%20%26%20R1%2C650%3F%0AThanks"],
  ])("%j with %j → %s", (number, text, url) => {
    expect(buildWhatsAppLink(number, text)).toBe(url);
  });

  it("round-trips the text", () => {
    const text = "Download: 45 Mbps, Ping: 20 ms — IPTV Status: Excellent";
    const url = new URL(buildWhatsAppLink("0821234567", text));
    expect(url.searchParams.get("text")).toBe(text);
  });
});

describe("isValidWhatsAppLink — spec §5: must start with the base address", () => {
  it.each([
    ["https://wa.me/27821234567", true],
    ["https://wa.me/27821234567?text=hi", true],
    ["http://wa.me/27821234567", false],
    ["https://evil.example/?https://wa.me/", false],
    ["javascript:alert(1)", false],
    ["", false],
  ])("%j → %s", (url, ok) => {
    expect(isValidWhatsAppLink(url)).toBe(ok);
  });

  it("accepts every link it builds", () => {
    expect(WHATSAPP_BASE_URL).toBe("https://wa.me/");
    expect(isValidWhatsAppLink(buildWhatsAppLink("082 123 4567", "x"))).toBe(true);
  });
});

describe("formatPhoneForDisplay — docs/architecture.md (House style): +27 82 123 4567", () => {
  it.each([
    ["0821234567", "+27 82 123 4567"],
    ["27821234567", "+27 82 123 4567"],
    ["+27 82 123 4567", "+27 82 123 4567"],
    ["821234567", "+27 82 123 4567"],
    ["011 555 1234", "+27 11 555 1234"],
    ["0044 20 7946 0958", "+442079460958"],
    ["08212", "+278212"],
    ["", ""],
  ])("%j → %j", (input, shown) => {
    expect(formatPhoneForDisplay(input)).toBe(shown);
  });
});
