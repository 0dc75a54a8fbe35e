// Which URLs a webhook may point at (contract §10): https only, and no host that
// resolves to a loopback, private, link-local, shared, multicast or metadata
// address, unless WEBHOOK_ALLOW_PRIVATE=1 (tests, local development). Every
// address the name resolves to is checked, at configuration and again before each
// attempt (a name may be re-pointed after it was accepted).
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

const REFUSED = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, including the 169.254.169.254 metadata service
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  REFUSED.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique local, including fd00:ec2::254 (a cloud metadata address)
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  REFUSED.addSubnet(net, bits, "ipv6");
}

/** The IPv4 address an IPv6 address embeds (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether a literal address lies in a range webhooks may not reach. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return REFUSED.check(address, "ipv4");
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return REFUSED.check(v4, "ipv4");
    return REFUSED.check(address, "ipv6");
  }
  return true;
}

export type UrlVerdict = { ok: true } | { ok: false; reason: string };

/** The URL's syntax: absolute http(s), no credentials; https unless private addresses are allowed. */
export function checkUrlSyntax(raw: string, allowPrivate: boolean): UrlVerdict {
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

export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Syntax, then every address the host resolves to. With allowPrivate, syntax only. */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean, resolve: Resolver = systemResolver): Promise<UrlVerdict> {
  const syntax = checkUrlSyntax(raw, allowPrivate);
  if (!syntax.ok || allowPrivate) return syntax;
  const host = new URL(raw).hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return { ok: false, reason: "the host does not resolve" };
  }
  if (addresses.length === 0) return { ok: false, reason: "the host does not resolve" };
  if (addresses.some(isRefusedAddress)) return { ok: false, reason: "resolves to a loopback, private, link-local or metadata address" };
  return { ok: true };
}
