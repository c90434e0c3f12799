// The network a request comes from, for the per-network trial limit: the /24 of an IPv4
// address, the /48 of an IPv6 one (a household or small office's usual allocation), an
// IPv4-mapped IPv6 address as its IPv4. Anything else (no address) is its own text.
import { isIPv4, isIPv6 } from "node:net";

function v4(ip: string): string {
  const [a, b, c] = ip.split(".");
  return `${Number(a)}.${Number(b)}.${Number(c)}.0/24`;
}

/** The eight 16-bit groups of an IPv6 address, expanded ('::' filled in, an embedded IPv4 tail converted). */
function groups(ip: string): number[] {
  let text = ip.toLowerCase().split("%")[0];
  const tail = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (tail) {
    const [a, b, c, d] = tail[1].split(".").map(Number);
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.includes("::") ? text.split("::") : [text, null];
  const left = head ? head.split(":") : [];
  const right = rest ? rest.split(":") : [];
  const fill = rest === null ? [] : new Array(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right].map((g) => Number.parseInt(g || "0", 16));
}

export function networkOf(ip: string): string {
  const address = ip.trim();
  if (isIPv4(address)) return v4(address);
  if (isIPv6(address)) {
    const g = groups(address);
    // ::ffff:a.b.c.d — an IPv4 client seen through a dual-stack socket
    if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4(`${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`);
    return `${g
      .slice(0, 3)
      .map((x) => x.toString(16))
      .join(":")}::/48`;
  }
  return address || "unknown";
}
