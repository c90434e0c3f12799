import { describe, expect, it } from "vitest";
import { networkOf } from "./network";

describe("networkOf", () => {
  it.each([
    ["198.51.100.7", "198.51.100.0/24"],
    ["198.51.100.250", "198.51.100.0/24"],
    ["::ffff:198.51.100.9", "198.51.100.0/24"],
    ["2001:db8:abcd:12::1", "2001:db8:abcd::/48"],
    ["2001:0db8:abcd:ffff:1:2:3:4", "2001:db8:abcd::/48"],
    ["2001:db8::1", "2001:db8:0::/48"],
    ["::1", "0:0:0::/48"],
    ["", "unknown"],
  ])("%s → %s", (ip, network) => {
    expect(networkOf(ip)).toBe(network);
  });
});
