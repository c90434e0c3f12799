// PayFast's ITN source check: its hosts' addresses (resolved through an injected resolver, never
// DNS), cached; the owner's PAYFAST_VALID_IPS; IPv4-mapped IPv6; a failed lookup keeps the last set.
import { describe, expect, it } from "vitest";
import { createPayfastSourceCheck, normaliseIp, PAYFAST_ITN_HOSTS } from "./source";

const PAYFAST = { "www.payfast.co.za": ["144.126.193.139"], "w1w.payfast.co.za": ["197.97.145.144", "2c0f:fe90::1"] } as Record<
  string,
  string[]
>;

function resolver(table: Record<string, string[]> = PAYFAST) {
  const asked: string[] = [];
  let down = false;
  return {
    asked,
    setDown: (value: boolean) => {
      down = value;
    },
    resolve: async (host: string) => {
      asked.push(host);
      if (down) throw new Error("DNS down");
      return table[host] ?? [];
    },
  };
}

describe("PayFast ITN source check", () => {
  it("accepts PayFast's hosts' addresses, IPv6 and IPv4-mapped, and refuses others", async () => {
    const r = resolver();
    const check = createPayfastSourceCheck({ resolve: r.resolve });
    expect(await check.allows("144.126.193.139")).toBe(true);
    expect(await check.allows("::ffff:197.97.145.144")).toBe(true);
    expect(await check.allows("2C0F:FE90::1")).toBe(true);
    expect(await check.allows("127.0.0.1")).toBe(false);
    expect(await check.allows("203.0.113.9")).toBe(false);
    expect(await check.allows(undefined)).toBe(false);
    expect(await check.allows("not-an-ip")).toBe(false);
    // every documented host is looked up, once: the answers are cached
    expect([...new Set(r.asked)].sort()).toEqual([...PAYFAST_ITN_HOSTS].sort());
    expect(r.asked).toHaveLength(PAYFAST_ITN_HOSTS.length);
  });

  it("accepts the addresses in PAYFAST_VALID_IPS without any lookup, and * turns the check off", async () => {
    const r = resolver();
    const check = createPayfastSourceCheck({ validIps: "127.0.0.1, ::1", resolve: r.resolve });
    expect(await check.allows("127.0.0.1")).toBe(true);
    expect(await check.allows("::ffff:127.0.0.1")).toBe(true);
    expect(await check.allows("::1")).toBe(true);
    expect(r.asked).toEqual([]);
    expect(await createPayfastSourceCheck({ validIps: "*", resolve: r.resolve }).allows("203.0.113.9")).toBe(true);
  });

  it("looks the hosts up again after ten minutes, keeping the last good set while DNS is down", async () => {
    let clock = 0;
    const r = resolver();
    const check = createPayfastSourceCheck({ resolve: r.resolve, now: () => clock });
    expect(await check.allows("144.126.193.139")).toBe(true);
    r.setDown(true);
    clock += 11 * 60_000;
    expect(await check.allows("144.126.193.139")).toBe(true);
    expect(r.asked).toHaveLength(PAYFAST_ITN_HOSTS.length * 2);
    // never resolved and DNS down: only the listed addresses pass
    const cold = resolver();
    cold.setDown(true);
    expect(await createPayfastSourceCheck({ resolve: cold.resolve }).allows("144.126.193.139")).toBe(false);
  });

  it("normalises addresses", () => {
    expect(normaliseIp(" ::FFFF:10.0.0.1 ")).toBe("10.0.0.1");
    expect(normaliseIp("2C0F:FE90::1")).toBe("2c0f:fe90::1");
  });
});
