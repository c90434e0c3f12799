import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { escapeForSignature, headerValue, ikSignature, signatureMatches } from "./signing";

describe("iKhokha signature", () => {
  const path = "/public-api/v1/api/payment";
  // A body with double quotes, a single quote and a backslash: each gains a backslash.
  const body = `{"description":"Sipho's \\"3 Months\\" plan","note":"C:\\\\tv"}`;

  it("escapes a backslash before each \\, \" and ', and NUL as \\0", () => {
    expect(escapeForSignature(`a"b'c\\d`)).toBe(`a\\"b\\'c\\\\d`);
    expect(escapeForSignature("x\u0000y")).toBe("x\\0y");
    expect(escapeForSignature("plain/path")).toBe("plain/path");
  });

  it("matches a vector computed by hand: HMAC-SHA256 (trimmed key) over the escaped path + body, lowercase hex", () => {
    // The escaped string written out by hand, character by character.
    const escapedByHand =
      "/public-api/v1/api/payment" + `{\\"description\\":\\"Sipho\\'s \\\\\\"3 Months\\\\\\" plan\\",\\"note\\":\\"C:\\\\\\\\tv\\"}`;
    expect(escapeForSignature(path + body)).toBe(escapedByHand);
    const expected = createHmac("sha256", "s3cret-key").update(escapedByHand, "utf8").digest("hex");
    expect(ikSignature(path, body, "  s3cret-key \n")).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
    // Pinned, so a change to the escaping or key handling cannot pass silently; computed once in a
    // shell (documented-examples.test.ts holds the same vector for adapter and fake):
    //   cat > /tmp/ik.txt <<'EOF'
    //   /public-api/v1/api/payment{\"description\":\"Sipho\'s \\\"3 Months\\\" plan\",\"note\":\"C:\\\\tv\"}
    //   EOF
    //   printf '%s' "$(cat /tmp/ik.txt)" | openssl dgst -sha256 -hmac 's3cret-key'
    expect(expected).toBe("9a640b7ac4dc867e51fc51827e4b91f4228f77af00216e92847b9ced10149326");
  });

  it("signs a GET over the path alone", () => {
    const statusPath = "/public-api/v1/api/getStatus/abc123";
    expect(ikSignature(statusPath, "", "k")).toBe(createHmac("sha256", "k").update(statusPath).digest("hex"));
  });

  it("verifies only the exact path, body and key", () => {
    const good = ikSignature(path, body, "key");
    expect(signatureMatches(good, path, body, "key")).toBe(true);
    expect(signatureMatches(good.toUpperCase(), path, body, "key")).toBe(true);
    expect(signatureMatches(good, path, `${body} `, "key")).toBe(false);
    expect(signatureMatches(good, "/other", body, "key")).toBe(false);
    expect(signatureMatches(good, path, body, "other-key")).toBe(false);
    expect(signatureMatches(undefined, path, body, "key")).toBe(false);
    expect(signatureMatches("abc", path, body, "key")).toBe(false);
  });

  it("reads a header whatever its case", () => {
    expect(headerValue({ "IK-SIGN": "x" }, "ik-sign")).toBe("x");
    expect(headerValue({ "ik-appid": ["a", "b"] }, "IK-APPID")).toBe("a");
    expect(headerValue({}, "ik-sign")).toBeUndefined();
  });
});
