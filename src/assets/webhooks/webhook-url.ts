// Which URLs a webhook may point at (contract §10): https only, and no host that
// resolves to a loopback, private, link-local, shared, multicast or metadata
// address, unless WEBHOOK_ALLOW_PRIVATE=1 (tests, local development). Every
// address the name resolves to is checked, at configuration and again before each
// attempt (a name may be re-pointed after it was accepted), and the attempt then
// connects to an address of that very answer (pinnedTarget): the name is not
// resolved a second time between the check and the connection (DNS rebinding).
import { BlockList, isIP } from "node:net";
import { systemResolveHost, type HostResolver } from "../../platform/deps.ts";

const REFUSED_V4 = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], // "this network", including 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, including the 169.254.169.254 metadata service
  ["172.16.0.0", 12],
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // the former 6to4 relay anycast
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, including 255.255.255.255
] as const) {
  REFUSED_V4.addSubnet(net, bits, "ipv4");
}

const REFUSED_V6 = new BlockList();
for (const [net, bits] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64 (RFC 8215): a translator inside some network
  ["100::", 64], // discard-only
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation (RFC 9637)
  ["fc00::", 7], // unique local, including fd00:ec2::254 (a cloud metadata address)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // the former site-local
  ["ff00::", 8], // multicast
] as const) {
  REFUSED_V6.addSubnet(net, bits, "ipv6");
}

/** The eight 16-bit groups of an IPv6 address in any textual form (`::`, a dotted-quad tail, a zone), or null. */
export function ipv6Groups(address: string): number[] | null {
  let a = address.toLowerCase();
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  if (isIP(a) !== 6) return null;
  const tail: number[] = [];
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (dotted) {
    const [o1, o2, o3, o4] = dotted.slice(2).map(Number) as [number, number, number, number];
    tail.push((o1 << 8) | o2, (o3 << 8) | o4);
    a = dotted[1]!.endsWith("::") ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const hex = (part: string) => (part === "" ? [] : part.split(":").map((g) => parseInt(g, 16)));
  const gap = a.indexOf("::");
  let groups: number[];
  if (gap < 0) groups = hex(a);
  else {
    const head = hex(a.slice(0, gap));
    const rest = hex(a.slice(gap + 2));
    groups = [...head, ...new Array<number>(8 - tail.length - head.length - rest.length).fill(0), ...rest];
  }
  groups.push(...tail);
  return groups.length === 8 ? groups : null;
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 addresses an IPv6 address carries and that a connection to it may end up
 * at: IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, IPv4-translated
 * ::ffff:0:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16 (bits 16–47) and Teredo
 * 2001::/32 (its server, bits 32–63, and its client, the last 32 bits XOR 0xffffffff).
 */
export function embeddedIpv4(g: readonly number[]): string[] {
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zero(0, 5) && g[5] === 0xffff) return [v4(g[6]!, g[7]!)]; // mapped
  if (zero(0, 6)) return [v4(g[6]!, g[7]!)]; // compatible (deprecated), :: and ::1 included
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return [v4(g[6]!, g[7]!)]; // translated (SIIT)
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return [v4(g[6]!, g[7]!)]; // NAT64, well-known prefix
  if (g[0] === 0x2002) return [v4(g[1]!, g[2]!)]; // 6to4
  if (g[0] === 0x2001 && g[1] === 0) return [v4(g[2]!, g[3]!), v4(g[6]! ^ 0xffff, g[7]! ^ 0xffff)]; // Teredo
  return [];
}

/** Whether a literal address lies in a range webhooks may not reach (anything that is not an address included). */
export function isRefusedAddress(address: string): boolean {
  if (isIP(address) === 4) return REFUSED_V4.check(address, "ipv4");
  const groups = ipv6Groups(address);
  if (!groups) return true;
  if (embeddedIpv4(groups).some((a) => REFUSED_V4.check(a, "ipv4"))) return true;
  const canonical = groups.map((x) => x.toString(16)).join(":");
  return REFUSED_V6.check(canonical, "ipv6");
}

export type SyntaxVerdict = { ok: true } | { ok: false; reason: string };
/** On success, the addresses the host resolved to (all checked), in the resolver's order: the attempt connects to the first. */
export type UrlVerdict = { ok: true; addresses: string[] } | { ok: false; reason: string };

/** The URL's syntax: absolute http(s), no credentials; https unless private addresses are allowed. */
export function checkUrlSyntax(raw: string, allowPrivate: boolean): SyntaxVerdict {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "must be an absolute URL" };
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return { ok: false, reason: "must use https" };
  if (url.username || url.password) return { ok: false, reason: "must not carry credentials" };
  if (url.hash) return { ok: false, reason: "must not carry a fragment" };
  return { ok: true };
}

/** The URL's host without the brackets of an IPv6 literal (WHATWG parsing has already normalised IPv4 forms like 0x7f.1). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Syntax, then the host's addresses (a literal address is its own answer), every one
 * checked. With allowPrivate the ranges are not checked, but the name is still
 * resolved: the attempt needs an address to connect to.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean, resolve: HostResolver = systemResolveHost): Promise<UrlVerdict> {
  const syntax = checkUrlSyntax(raw, allowPrivate);
  if (!syntax.ok) return syntax;
  const host = hostOf(new URL(raw));
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return { ok: false, reason: "the host does not resolve" };
  }
  if (addresses.length === 0) return { ok: false, reason: "the host does not resolve" };
  if (!allowPrivate && addresses.some(isRefusedAddress)) {
    return { ok: false, reason: "resolves to a loopback, private, link-local, metadata or reserved address (IPv4 embedded in IPv6 included)" };
  }
  return { ok: true, addresses };
}

/** Where an attempt connects: the URL with its host replaced by the checked address, and what keeps the name. */
export interface PinnedTarget {
  /** The URL with the checked address as its host (IPv6 in brackets), so the HTTP client resolves nothing. */
  url: string;
  /** The Host header: the URL's own host (and port when not the scheme's default). */
  host: string;
  /** For https to a name: the TLS server name, sent as SNI and the name the certificate is verified against. */
  serverName: string | undefined;
}

export function pinnedTarget(raw: string, address: string): PinnedTarget {
  const url = new URL(raw);
  const host = url.host;
  const name = hostOf(url);
  const serverName = url.protocol === "https:" && !isIP(name) ? name.replace(/\.$/, "") : undefined;
  url.hostname = isIP(address) === 6 ? `[${address.replace(/%.*$/, "")}]` : address;
  return { url: url.href, host, serverName };
}
