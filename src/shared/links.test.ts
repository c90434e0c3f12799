import { describe, expect, it } from "vitest";
import { isSafeLink } from "./links";

describe("isSafeLink (admin-set links)", () => {
  it.each([
    "https://example.co.za/app.apk",
    "http://downloads.example.co.za:8080/player.apk?v=2#notes",
    "https://example.co.za",
    "/downloads",
    "/",
    "/images/logo.png?x=1",
  ])("accepts %s", (link) => expect(isSafeLink(link)).toBe(true));

  it.each([
    "/\\evil.example/app.apk",
    "//evil.example/app.apk",
    "\\\\evil.example",
    "/\\/evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "https://good.example@evil.example/app.apk",
    "https://evil.example\\@good.example",
    "https:/\\evil.example",
    "https://",
    "ftp://example.co.za/file",
    "example.co.za/app.apk",
    "/path with space",
    " https://example.co.za",
    "https://example.co.za/\napp",
  ])("refuses %s", (link) => expect(isSafeLink(link)).toBe(false));
});
