// Production identity: tokens verified against a remote JWKS (a real HTTP server on
// loopback serving the provider's key set), with issuer and audience enforced.
import { describe, test, expect, afterAll } from "bun:test";
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey } from "jose";
import { createTestEnv, TEST_SECRET } from "../harness.ts";
import { mintToken } from "../../src/platform/auth/mint.ts";

const ISSUER = "https://idp.example.test";
const AUDIENCE = "asset-api";
const { publicKey, privateKey } = await generateKeyPair("RS256");
const other = await generateKeyPair("RS256");
const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
let jwksHits = 0;
const idp = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    if (new URL(req.url).pathname !== "/.well-known/jwks.json") return new Response("not found", { status: 404 });
    jwksHits++;
    return Response.json({ keys: [jwk] });
  },
});
const env = await createTestEnv({
  DASHBOARD_JWKS_URL: `http://127.0.0.1:${idp.port}/.well-known/jwks.json`,
  DASHBOARD_JWT_ISSUER: ISSUER,
  DASHBOARD_JWT_AUDIENCE: AUDIENCE,
});
afterAll(() => {
  env.close();
  idp.stop(true);
});
await env.provision("acme");
await env.member("acme", "ida", "viewer");

async function idpToken(opts: { key?: CryptoKey; kid?: string; iss?: string; aud?: string; claims?: Record<string, unknown> } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ sid: "s1", aal: "aal2", amr: ["passkey"], auth_time: now, ...opts.claims })
    .setProtectedHeader({ alg: "RS256", kid: opts.kid ?? "k1" })
    .setSubject("ida")
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .setIssuer(opts.iss ?? ISSUER)
    .setAudience(opts.aud ?? AUDIENCE);
  return jwt.sign(opts.key ?? privateKey);
}

const me = (token: string, scheme = "Bearer") =>
  env.app.fetch(new Request("http://t/api/me?partnerId=acme", { headers: { authorization: `${scheme} ${token}` } }));

describe("remote JWKS", () => {
  test("a token signed by the provider's key, with its issuer and audience, is accepted", async () => {
    const r = await me(await idpToken());
    expect(r.status).toBe(200);
    expect(((await r.json()) as { userId: string }).userId).toBe("ida");
    expect(jwksHits).toBeGreaterThan(0);
  });

  test("the scheme name is case-insensitive", async () => {
    expect((await me(await idpToken(), "bearer")).status).toBe(200);
  });

  test("wrong issuer, wrong audience, unknown key or foreign signature are 401", async () => {
    for (const t of [
      await idpToken({ iss: "https://evil.example.test" }),
      await idpToken({ aud: "someone-else" }),
      await idpToken({ kid: "k2" }),
      await idpToken({ key: other.privateKey }),
    ]) {
      const r = await me(t);
      expect(r.status).toBe(401);
      expect(((await r.json()) as { code: string }).code).toBe("unauthenticated");
    }
  });

  test("with a JWKS configured, an HS256 token made with the development secret is refused", async () => {
    const hs = await mintToken(TEST_SECRET, "ida", { issuer: ISSUER, audience: AUDIENCE });
    expect((await me(hs)).status).toBe(401);
  });

  test("tokens without sid or iat, or authenticated in the future, are 401", async () => {
    const now = Math.floor(Date.now() / 1000);
    const noSid = await new SignJWT({ aal: "aal2", amr: ["passkey"], auth_time: now })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setSubject("ida")
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .sign(privateKey);
    const noIat = await new SignJWT({ sid: "s", aal: "aal2", amr: ["passkey"], auth_time: now })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setSubject("ida")
      .setExpirationTime(now + 600)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .sign(privateKey);
    const future = await idpToken({ claims: { auth_time: now + 3600 } });
    for (const t of [noSid, noIat, future]) expect((await me(t)).status).toBe(401);
  });
});
