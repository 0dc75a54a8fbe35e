// A loopback OpenID Connect provider for the console's production sign-in stories: discovery,
// an authorization endpoint that signs `user` in at once (no login form) and redirects back
// with a code, a token endpoint that insists on PKCE S256 and issues RS256 access tokens with
// the claims the API verifies (sub, sid, iat, exp, aal, amr, auth_time), and the JWKS the API
// is configured with (DASHBOARD_JWKS_URL). CORS on the endpoints the browser fetches.
import { createHash, randomUUID } from "node:crypto";
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import type { Server } from "bun";

export interface OidcProvider {
  issuer: string;
  jwksUrl: string;
  clientId: string;
  /** Who the next authorization signs in, and how long ago they last authenticated (seconds). */
  next: { user: string; authAgeSeconds: number };
  /** The authorization requests seen (their query parameters). */
  authorizations: Array<Record<string, string>>;
  /** Token exchanges that proved PKCE. */
  exchanges: number;
  stop(): Promise<void>;
}

const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "Content-Type, Accept", "Access-Control-Allow-Methods": "GET, POST" };
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...CORS } });

export async function startOidcProvider(clientId = "ops-console"): Promise<OidcProvider> {
  const { publicKey, privateKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  const codes = new Map<string, { challenge: string; redirectUri: string; user: string; authTime: number }>();
  let server: Server<undefined> | undefined;
  const provider: OidcProvider = {
    issuer: "",
    jwksUrl: "",
    clientId,
    next: { user: "olivia", authAgeSeconds: 0 },
    authorizations: [],
    exchanges: 0,
    stop: async () => void (await server?.stop(true)),
  };
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: CORS });
      if (url.pathname === "/.well-known/openid-configuration") {
        return json({
          issuer: provider.issuer,
          authorization_endpoint: `${provider.issuer}/authorize`,
          token_endpoint: `${provider.issuer}/token`,
          jwks_uri: provider.jwksUrl,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
        });
      }
      if (url.pathname === "/jwks") return json({ keys: [jwk] });
      if (url.pathname === "/authorize") {
        const q = Object.fromEntries(url.searchParams);
        provider.authorizations.push(q);
        if (q.client_id !== clientId || q.response_type !== "code" || q.code_challenge_method !== "S256" || !q.code_challenge) return json({ error: "invalid_request" }, 400);
        const code = randomUUID();
        const now = Math.floor(Date.now() / 1000);
        codes.set(code, { challenge: q.code_challenge, redirectUri: q.redirect_uri!, user: provider.next.user, authTime: now - provider.next.authAgeSeconds });
        const back = new URL(q.redirect_uri!);
        back.searchParams.set("code", code);
        back.searchParams.set("state", q.state ?? "");
        return new Response(null, { status: 302, headers: { Location: back.toString() } });
      }
      if (url.pathname === "/token" && req.method === "POST") {
        const form = new URLSearchParams(await req.text());
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const proof = createHash("sha256").update(verifier).digest("base64url");
        if (!grant || form.get("grant_type") !== "authorization_code" || form.get("client_id") !== clientId || form.get("redirect_uri") !== grant.redirectUri || proof !== grant.challenge) {
          return json({ error: "invalid_grant", error_description: "code, client, redirect URI or PKCE verifier does not match" }, 400);
        }
        provider.exchanges++;
        const now = Math.floor(Date.now() / 1000);
        const accessToken = await new SignJWT({ sid: randomUUID(), aal: "aal2", amr: ["passkey"], auth_time: grant.authTime })
          .setProtectedHeader({ alg: "RS256", kid: "k1", typ: "JWT" })
          .setSubject(grant.user)
          .setIssuer(provider.issuer)
          .setIssuedAt(now)
          .setExpirationTime(now + 3600)
          .sign(privateKey);
        return json({ access_token: accessToken, token_type: "Bearer", expires_in: 3600 });
      }
      return json({ error: "not_found" }, 404);
    },
  });
  provider.issuer = `http://127.0.0.1:${server.port}`;
  provider.jwksUrl = `${provider.issuer}/jwks`;
  return provider;
}
