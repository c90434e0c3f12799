// The pay link's token on its own: what it binds, and that no change to it survives the check.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PAY_LINK_DAYS, payLinkMaker, signPayLink, verifyPayLink } from "./token";

const key = randomBytes(32);
const clientId = "0b6c3f1e-8d2a-4c5b-9e7f-1a2b3c4d5e6f";
const packageId = "f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9";
const now = new Date("2026-11-26T10:00:00.000Z");
const later = new Date(now.getTime() + 14 * 86_400_000);

/** The token with one character changed to another of the alphabet. */
function flip(token: string, at: number): string {
  const c = token[at] === "A" ? "B" : "A";
  return token.slice(0, at) + c + token.slice(at + 1);
}

describe("pay link tokens", () => {
  it("round-trips the client, the package and the expiry (to the second), in 71 URL-safe characters", () => {
    const token = signPayLink(key, { clientId, packageId, expiresAt: later });
    expect(token).toMatch(/^[A-Za-z0-9_-]{71}$/);
    expect(verifyPayLink(key, token, now)).toEqual({ ok: true, claims: { clientId, packageId, expiresAt: later } });
  });

  it("refuses a token with any one character changed (ids, expiry or signature)", () => {
    const token = signPayLink(key, { clientId, packageId, expiresAt: later });
    for (let at = 0; at < token.length; at++) {
      const check = verifyPayLink(key, flip(token, at), now);
      expect(check.ok, `character ${at}`).toBe(false);
    }
  });

  it("refuses another client's ids spliced under this signature", () => {
    const mine = Buffer.from(signPayLink(key, { clientId, packageId, expiresAt: later }), "base64url");
    const other = Buffer.from(signPayLink(key, { clientId: packageId, packageId: clientId, expiresAt: later }), "base64url");
    const spliced = Buffer.concat([other.subarray(0, 37), mine.subarray(37)]).toString("base64url");
    expect(verifyPayLink(key, spliced, now)).toEqual({ ok: false, reason: "invalid" });
  });

  it("refuses a token signed with another key, a truncated one and junk", () => {
    const token = signPayLink(key, { clientId, packageId, expiresAt: later });
    expect(verifyPayLink(randomBytes(32), token, now)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyPayLink(key, token.slice(0, -1), now)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyPayLink(key, `${token}A`, now)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyPayLink(key, "not a token", now)).toEqual({ ok: false, reason: "invalid" });
    expect(verifyPayLink(key, "", now)).toEqual({ ok: false, reason: "invalid" });
  });

  it("says expired (with whose link it was) from the second of its expiry, not before", () => {
    const token = signPayLink(key, { clientId, packageId, expiresAt: later });
    expect(verifyPayLink(key, token, new Date(later.getTime() - 1000)).ok).toBe(true);
    expect(verifyPayLink(key, token, later)).toEqual({ ok: false, reason: "expired", claims: { clientId, packageId, expiresAt: later } });
  });

  it("makes links on the public address that work for the pay link's days", () => {
    const url = payLinkMaker("https://shop.example", key, now)(clientId, packageId);
    const token = url.replace("https://shop.example/pay/", "");
    const check = verifyPayLink(key, token, now);
    expect(check).toEqual({ ok: true, claims: { clientId, packageId, expiresAt: new Date(now.getTime() + PAY_LINK_DAYS * 86_400_000) } });
  });
});
