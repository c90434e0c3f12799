// PayFast's ITN source check (docs/payment-providers.md, following PayFast's "ITN" page: "check
// that the notification comes from a valid PayFast domain"): an ITN is believed only from an address
// of PayFast's hosts, resolved and kept for a while, or from one the owner lists in
// PAYFAST_VALID_IPS (the fake on 127.0.0.1 in tests; "*" turns the check off). The resolver is
// injectable, so no test needs DNS. Behind a proxy the address is the client's as the app trusts it
// (request.ip under TRUST_PROXY).
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { HostResolver } from "../provider";

/** The hosts PayFast documents ITNs as coming from. */
export const PAYFAST_ITN_HOSTS = ["www.payfast.co.za", "sandbox.payfast.co.za", "w1w.payfast.co.za", "w2w.payfast.co.za"] as const;
/** How long resolved addresses are kept; a failed lookup keeps the last good ones. */
const RESOLVED_TTL_MS = 10 * 60_000;

export type { HostResolver };

/** The system's resolver: every address (IPv4 and IPv6) of a host. */
export const dnsResolver: HostResolver = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

/** 1.2.3.4 and ::ffff:1.2.3.4 are the same client; IPv6 compared lower-case. */
export function normaliseIp(ip: string): string {
  const trimmed = ip.trim().toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(trimmed);
  return mapped ? mapped[1] : trimmed;
}

export interface PayfastSourceCheck {
  /** whether an ITN from this address may be believed */
  allows(ip: string | undefined): Promise<boolean>;
}

export function createPayfastSourceCheck(options: {
  /** PAYFAST_VALID_IPS: comma-separated addresses, or "*" */
  validIps?: string;
  resolve?: HostResolver;
  now?: () => number;
}): PayfastSourceCheck {
  const resolve = options.resolve ?? dnsResolver;
  const now = options.now ?? Date.now;
  const listed = (options.validIps ?? "").trim();
  const anyone = listed === "*";
  const fixed = new Set(listed && !anyone ? listed.split(",").map(normaliseIp).filter(Boolean) : []);
  let resolved: { addresses: Set<string>; at: number } | null = null;
  let resolving: Promise<Set<string>> | null = null;

  /** PayFast's hosts' addresses, from the cache while fresh; one lookup at a time. */
  async function payfastAddresses(): Promise<Set<string>> {
    if (resolved && now() - resolved.at < RESOLVED_TTL_MS) return resolved.addresses;
    resolving ??= (async () => {
      const results = await Promise.allSettled(PAYFAST_ITN_HOSTS.map((host) => resolve(host)));
      const addresses = new Set(results.flatMap((r) => (r.status === "fulfilled" ? r.value.map(normaliseIp) : [])));
      // Nothing resolved (DNS down): keep the last good set rather than refuse PayFast itself.
      if (addresses.size) resolved = { addresses, at: now() };
      return resolved?.addresses ?? addresses;
    })().finally(() => {
      resolving = null;
    });
    return resolving;
  }

  return {
    async allows(ip) {
      if (anyone) return true;
      if (!ip || !isIP(normaliseIp(ip))) return false;
      const address = normaliseIp(ip);
      if (fixed.has(address)) return true;
      return (await payfastAddresses()).has(address);
    },
  };
}
