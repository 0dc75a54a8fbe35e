// Where a webhook attempt may connect, and where it does. An administrator's URL
// names a host; the service resolves it once per attempt, refuses the answer when
// any address is loopback, private, link-local, metadata or reserved (IPv4 hidden in
// an IPv6 form included), and then connects to the address it checked: a DNS
// answer that changes between the check and the request (rebinding) is not asked
// for. The Host header and, for https, SNI and the certificate check keep the name.
import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { createTestEnv, MutableClock } from "../../../test/harness.ts";
import { partnerKit } from "../../../test/kit.ts";
import { scriptedResolver, startReceiver, verifySignature, type Receiver } from "../../../test/fakes/webhook-receiver.ts";
import { HOOKS_TEST, OTHER_TEST } from "../../../test/fakes/tls-identities.ts";
import { runJob } from "../../jobs/run-job.ts";
import { webhookDeliveryJob } from "../../jobs/webhook-delivery.job.ts";
import { embeddedIpv4, ipv6Groups, isRefusedAddress } from "./webhook-url.ts";

const clock = new MutableClock(new Date("2030-07-08T10:00:00.000Z"));
const KEY = randomBytes(32).toString("base64");
const receivers: Receiver[] = [];
const closers: Array<() => void> = [];
afterAll(() => {
  for (const r of receivers) r.stop();
  for (const c of closers) c();
});
function receiver(...args: Parameters<typeof startReceiver>) {
  const r = startReceiver(...args);
  receivers.push(r);
  return r;
}

/** A Teredo address (server 65.54.227.120) whose client is `ip`: the last 32 bits are the client XOR 0xffffffff. */
function teredo(ip: string): string {
  const n = ip.split(".").map(Number) as [number, number, number, number];
  const x = (((n[0] << 24) | (n[1] << 16) | (n[2] << 8) | n[3]) ^ 0xffffffff) >>> 0;
  return `2001:0:4136:e378:8000:63bf:${(x >>> 16).toString(16)}:${(x & 0xffff).toString(16)}`;
}

// Each IPv6 form that carries a loopback, private or metadata IPv4, with what it carries.
const EMBEDDING_PRIVATE: Array<[string, string]> = [
  ["::ffff:127.0.0.1", "IPv4-mapped, dotted"],
  ["::ffff:7f00:1", "IPv4-mapped, hex"],
  ["0:0:0:0:0:ffff:a9fe:a9fe", "IPv4-mapped metadata, uncompressed"],
  ["::127.0.0.1", "IPv4-compatible, dotted"],
  ["::a00:1", "IPv4-compatible 10.0.0.1"],
  ["::ffff:0:7f00:1", "IPv4-translated loopback"],
  ["::ffff:0:10.0.0.1", "IPv4-translated, dotted"],
  ["2002:7f00:1::", "6to4 of 127.0.0.1"],
  ["2002:a9fe:a9fe::1", "6to4 of the metadata address"],
  ["2002:c0a8:101:5::1", "6to4 of 192.168.1.1"],
  [teredo("127.0.0.1"), "Teredo, client 127.0.0.1"],
  [teredo("10.0.0.1"), "Teredo, client 10.0.0.1"],
  [teredo("169.254.169.254"), "Teredo, client metadata"],
  ["2001:0:a00:1::f7f7:f7f7", "Teredo, server 10.0.0.1"],
  ["64:ff9b::7f00:1", "NAT64 of 127.0.0.1"],
  ["64:ff9b::169.254.169.254", "NAT64 of the metadata address, dotted"],
  ["64:ff9b::c0a8:101", "NAT64 of 192.168.1.1"],
];

describe("the address classifier", () => {
  test.each([
    ...EMBEDDING_PRIVATE,
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback /8"],
    ["10.1.2.3", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["169.254.169.254", "metadata"],
    ["100.64.0.1", "CGNAT"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.251", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["192.0.2.10", "documentation"],
    ["198.18.0.1", "benchmarking"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback, uncompressed"],
    ["fc00::1", "unique local"],
    ["fd00:ec2::254", "unique local metadata"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local with a zone"],
    ["fec0::1", "former site-local"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["100::1", "discard-only"],
    ["64:ff9b:1::808:808", "local-use NAT64, whatever it embeds"],
    ["not-an-address", "not an address"],
    ["1.2.3", "not an address"],
  ] as Array<[string, string]>)("%s (%s) is refused", (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });

  test.each([
    ["93.184.216.34", "public IPv4"],
    ["8.8.8.8", "public IPv4"],
    ["2606:4700::1111", "public IPv6"],
    ["2001:4860:4860::8888", "public IPv6 under 2001::/16 but not Teredo"],
    ["::ffff:8.8.8.8", "IPv4-mapped public"],
    ["::ffff:808:808", "IPv4-mapped public, hex"],
    ["::ffff:0:808:808", "IPv4-translated public"],
    ["64:ff9b::808:808", "NAT64 of a public address"],
    ["2002:808:808::1", "6to4 of a public address"],
    [teredo("8.8.8.8"), "Teredo with a public client and server"],
  ] as Array<[string, string]>)("%s (%s) is allowed", (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });

  test("IPv6 forms are parsed to their groups, and the embedded IPv4 read out (RFC 4380's Teredo example)", () => {
    expect(ipv6Groups("::ffff:1.2.3.4")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(ipv6Groups("1::")).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(ipv6Groups("1:2:3:4:5:6:1.2.3.4")).toEqual([1, 2, 3, 4, 5, 6, 0x0102, 0x0304]);
    expect(ipv6Groups("10.0.0.1")).toBeNull();
    expect(embeddedIpv4(ipv6Groups("2001:0:4136:e378:8000:63bf:3fff:fdd2")!)).toEqual(["65.54.227.120", "192.0.2.45"]);
    expect(embeddedIpv4(ipv6Groups("2002:c000:22a::1")!)).toEqual(["192.0.2.42"]);
    expect(embeddedIpv4(ipv6Groups("2606:4700::1111")!)).toEqual([]);
  });
});

describe("names resolving to an IPv6 form of a private IPv4", () => {
  test("are 400 at /body/url on create and update, alone or among public answers, and a test delivery is address_refused without a connection", async () => {
    const dns = scriptedResolver({ "hooks.example.com": ["93.184.216.34"] });
    const calls: string[] = [];
    const fakeFetch = (async (url: string | URL | Request) => {
      calls.push(String(url));
      return new Response(null, { status: 204 });
    }) as unknown as typeof fetch;
    const strict = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: KEY }, { clock, fetch: fakeFetch, resolveHost: dns.resolve });
    closers.push(() => strict.close());
    const api = await partnerKit({ env: strict, partnerId: "embedded", users: { ada: "admin" } });
    const url = "https://hooks.example.com/ams";
    const hook = await api.create("/webhooks", { url, events: ["asset.created"] });

    for (const [address, form] of EMBEDDING_PRIVATE) {
      for (const answer of [[address], ["93.184.216.34", address]]) {
        dns.answer("hooks.example.com", answer);
        const created = await api.post("/webhooks", { url, events: ["asset.created"] });
        expect(created.status, `${form} ${answer}`).toBe(400);
        expect(created.body.errors, form).toEqual([expect.objectContaining({ path: "/body/url" })]);
        const updated = await api.put(`/webhooks/${hook.id}`, { url, events: ["asset.moved"], enabled: true });
        expect(updated.status, form).toBe(400);
        expect(updated.body.errors[0].path, form).toBe("/body/url");
        const tested = await api.post(`/webhooks/${hook.id}/test`, {});
        expect(tested.body, form).toMatchObject({ statusCode: null, error: "address_refused", outcome: "failed" });
      }
    }
    expect(calls).toEqual([]);
    // Nothing changed the endpoint; with a public answer again the same test goes out.
    dns.answer("hooks.example.com", ["93.184.216.34"]);
    expect((await api.get("/webhooks")).body.items).toEqual([expect.objectContaining({ id: hook.id, version: 1, events: ["asset.created"] })]);
    expect((await api.post(`/webhooks/${hook.id}/test`, {})).body).toMatchObject({ statusCode: 204, outcome: "succeeded" });
    expect(calls).toEqual(["https://93.184.216.34/ams"]);
  });

  test("a URL whose host is such a literal address is 400 at /body/url too (a public one is accepted)", async () => {
    const strict = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: KEY }, { clock });
    closers.push(() => strict.close());
    const api = await partnerKit({ env: strict, partnerId: "literal", users: { ada: "admin" } });
    for (const [address, form] of EMBEDDING_PRIVATE) {
      const res = await api.post("/webhooks", { url: `https://[${address}]/ams`, events: ["asset.created"] });
      expect(res.status, form).toBe(400);
      expect(res.body.errors, form).toEqual([expect.objectContaining({ path: "/body/url" })]);
    }
    for (const address of ["64:ff9b::808:808", "2002:808:808::1", teredo("8.8.8.8")]) {
      expect((await api.post("/webhooks", { url: `https://[${address}]/ams`, events: ["asset.created"] })).status, address).toBe(201);
    }
  });

  test("a name re-pointed to 6to4 of 127.0.0.1 after creation: the job's attempt is address_refused and retried; back on a public address it goes", async () => {
    const dns = scriptedResolver({ "hooks.example.com": ["93.184.216.34"] });
    const calls: string[] = [];
    const fakeFetch = (async (url: string | URL | Request) => {
      calls.push(String(url));
      return new Response(null, { status: 200 });
    }) as unknown as typeof fetch;
    const strict = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: KEY }, { clock, fetch: fakeFetch, resolveHost: dns.resolve });
    closers.push(() => strict.close());
    const api = await partnerKit({ env: strict, partnerId: "repointed", users: { ada: "admin" } });
    const hook = await api.create("/webhooks", { url: "https://hooks.example.com/ams", events: ["asset.created"] });
    await api.seed.asset();
    dns.answer("hooks.example.com", ["2002:7f00:1::"]);
    await runJob(strict.deps, webhookDeliveryJob, { partnerId: api.partnerId });
    expect(calls).toEqual([]);
    expect((await api.get(`/webhooks/${hook.id}/deliveries`)).body.items).toEqual([
      expect.objectContaining({ attempt: 1, statusCode: null, error: "address_refused", outcome: "retrying" }),
    ]);
    dns.answer("hooks.example.com", ["93.184.216.34"]);
    clock.advance(60_000);
    await runJob(strict.deps, webhookDeliveryJob, { partnerId: api.partnerId });
    expect(calls).toEqual(["https://93.184.216.34/ams"]);
    expect((await api.get(`/webhooks/${hook.id}/deliveries`)).body.items[0]).toMatchObject({ attempt: 2, statusCode: 200, error: null, outcome: "succeeded" });
  });
});

describe("the attempt connects to the address it checked", () => {
  test("the URL's host is replaced by the first checked address; Host and the TLS server name keep the name; one lookup per attempt", async () => {
    const dns = scriptedResolver({ "hooks.example.com": ["93.184.216.34", "2606:2800:220:1::1"], "v6.example.com": ["2606:2800:220:1::1"] });
    const calls: Array<{ url: string; init: RequestInit & { tls?: { serverName?: string } } }> = [];
    const fakeFetch = (async (url: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(url), init: init! });
      return new Response("ignored", { status: 202 });
    }) as unknown as typeof fetch;
    const strict = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: KEY }, { clock, fetch: fakeFetch, resolveHost: dns.resolve });
    closers.push(() => strict.close());
    const api = await partnerKit({ env: strict, partnerId: "pinned", users: { ada: "admin" } });
    const v4 = await api.create("/webhooks", { url: "https://hooks.example.com/ams?tenant=1", events: ["asset.created"] });
    const v6 = await api.create("/webhooks", { url: "https://v6.example.com:8443/in", events: ["asset.created"] });
    const literal = await api.create("/webhooks", { url: "https://93.184.216.34:8443/raw", events: ["asset.created"] });
    dns.asked.length = 0;

    for (const hook of [v4, v6, literal]) expect((await api.post(`/webhooks/${hook.id}/test`, {})).body).toMatchObject({ statusCode: 202, outcome: "succeeded" });
    expect(dns.asked).toEqual(["hooks.example.com", "v6.example.com"]);
    expect(calls.map((c) => [c.url, (c.init.headers as Record<string, string>).Host, c.init.tls?.serverName])).toEqual([
      ["https://93.184.216.34/ams?tenant=1", "hooks.example.com", "hooks.example.com"],
      ["https://[2606:2800:220:1::1]:8443/in", "v6.example.com:8443", "v6.example.com"],
      // A literal address is its own answer: no lookup, and no server name (SNI carries names only).
      ["https://93.184.216.34:8443/raw", "93.184.216.34:8443", undefined],
    ]);
    for (const c of calls) {
      expect(c.init.method).toBe("POST");
      expect(c.init.redirect).toBe("manual");
      expect(c.init.signal).toBeInstanceOf(AbortSignal);
    }
  });

  test("DNS rebinding: the check's answer is 127.0.0.1, a second lookup would say 127.0.0.2; the event reaches 127.0.0.1", async () => {
    // WEBHOOK_ALLOW_PRIVATE=1 lets 127.0.0.1 play the public address that passed the check, and 127.0.0.2 the internal
    // service the name is re-pointed to right after it (same port, so only the address tells them apart).
    const checked = receiver({ fallback: 204 });
    const internal = receiver({ hostname: "127.0.0.2", port: checked.port, fallback: 204 });
    const dns = scriptedResolver();
    const allowing = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: KEY, WEBHOOK_ALLOW_PRIVATE: "1" }, { clock, resolveHost: dns.resolve });
    closers.push(() => allowing.close());
    const api = await partnerKit({ env: allowing, partnerId: "rebind", users: { ada: "admin" } });
    dns.answer("rebind.test", ["127.0.0.1"]);
    const hook = await api.create("/webhooks", { url: `http://rebind.test:${checked.port}/hooks`, events: ["asset.created"] });
    await api.seed.asset();

    // The job's attempt, then a test delivery: each time the first lookup answers 127.0.0.1 and any later one 127.0.0.2.
    dns.answer("rebind.test", ["127.0.0.1"], ["127.0.0.2"]);
    dns.asked.length = 0;
    const [run] = await runJob(allowing.deps, webhookDeliveryJob, { partnerId: api.partnerId });
    expect(run!.status).toBe("succeeded");
    dns.answer("rebind.test", ["127.0.0.1"], ["127.0.0.2"]);
    const tested = await api.post(`/webhooks/${hook.id}/test`, {});
    expect(tested.body).toMatchObject({ statusCode: 204, outcome: "succeeded" });

    expect(dns.asked).toEqual(["rebind.test", "rebind.test"]);
    expect(checked.received.map((r) => [r.event, r.host])).toEqual([
      ["asset.created", `rebind.test:${checked.port}`],
      ["webhook.test", `rebind.test:${checked.port}`],
    ]);
    expect(verifySignature(hook.secret, checked.received[0]!)).toBe(true);
    expect(internal.received).toEqual([]);
  });

  test("https to a name at a pinned address: SNI selects the name's certificate and it is verified against the name", async () => {
    // The receiver presents other.test's certificate unless the client asks for hooks.test by SNI. Both are trusted
    // (the test's own trust store, added by the fetch the env is given); neither certificate names 127.0.0.1.
    const tls = receiver({ tls: [OTHER_TEST, HOOKS_TEST], fallback: 204 });
    const trusting = ((url: string | URL | Request, init?: RequestInit & { tls?: object }) =>
      fetch(url, { ...init, tls: { ...init?.tls, ca: [HOOKS_TEST.cert, OTHER_TEST.cert] } } as RequestInit)) as typeof fetch;
    const dns = scriptedResolver({ "hooks.test": ["127.0.0.1"], "imposter.test": ["127.0.0.1"] });
    const allowing = await createTestEnv({ AMS_WEBHOOK_ENCRYPTION_KEY: KEY, WEBHOOK_ALLOW_PRIVATE: "1" }, { clock, fetch: trusting, resolveHost: dns.resolve });
    closers.push(() => allowing.close());
    const api = await partnerKit({ env: allowing, partnerId: "tls", users: { ada: "admin" } });
    const good = await api.create("/webhooks", { url: `https://hooks.test:${tls.port}/hooks`, events: ["asset.created"] });
    const imposter = await api.create("/webhooks", { url: `https://imposter.test:${tls.port}/hooks`, events: ["asset.created"] });

    expect((await api.post(`/webhooks/${good.id}/test`, {})).body).toMatchObject({ statusCode: 204, error: null, outcome: "succeeded" });
    expect(tls.received.map((r) => r.host)).toEqual([`hooks.test:${tls.port}`]);
    expect(verifySignature(good.secret, tls.received[0]!)).toBe(true);
    // Same address, a name no certificate carries: the handshake fails and nothing is received.
    expect((await api.post(`/webhooks/${imposter.id}/test`, {})).body).toMatchObject({ statusCode: null, error: "network", outcome: "failed" });
    expect(tls.received).toHaveLength(1);
  });
});
