// Production sign-in: OpenID Connect Authorization Code flow with PKCE (RFC 7636, S256)
// against CONSOLE_OIDC_ISSUER, as a public client (no secret in the browser). The issuer's
// endpoints come from its discovery document; the redirect URI is /console/callback. The
// access token the provider returns is what the API verifies (DASHBOARD_JWKS_URL) and what
// the console then holds in sessionStorage, like a pasted one.
import { signIn } from "./session.ts";

export interface OidcSettings {
  issuer: string;
  clientId: string;
  scope: string;
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
}

const PENDING_KEY = "console.oidc.pending";
export const CALLBACK_PATH = "/console/callback";

function base64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function randomString(bytes = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

async function discover(settings: OidcSettings): Promise<Discovery> {
  const url = `${settings.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const res = await fetch(url, { headers: { Accept: "application/json" } });
  if (!res.ok) throw new Error(`the identity provider's discovery document answered ${res.status}`);
  const doc = (await res.json()) as Partial<Discovery>;
  if (!doc.authorization_endpoint || !doc.token_endpoint) throw new Error("the identity provider's discovery document names no authorization or token endpoint");
  return { authorization_endpoint: doc.authorization_endpoint, token_endpoint: doc.token_endpoint };
}

function redirectUri(): string {
  return `${location.origin}${CALLBACK_PATH}`;
}

/**
 * Sends the browser to the provider. `fresh` asks for a new authentication (max_age=0,
 * prompt=login): the way to a recent step-up for actions that need one.
 */
export async function startOidcSignIn(settings: OidcSettings, returnTo: string, fresh = false): Promise<void> {
  const d = await discover(settings);
  const verifier = randomString(48);
  const challenge = base64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  const state = randomString(16);
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, returnTo }));
  const url = new URL(d.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", settings.clientId);
  url.searchParams.set("redirect_uri", redirectUri());
  url.searchParams.set("scope", settings.scope);
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", challenge);
  url.searchParams.set("code_challenge_method", "S256");
  if (fresh) {
    url.searchParams.set("max_age", "0");
    url.searchParams.set("prompt", "login");
  }
  location.assign(url.toString());
}

/** Finishes the flow on /console/callback; resolves to the console path to return to. */
export async function completeOidcSignIn(settings: OidcSettings, query: URLSearchParams): Promise<string> {
  const pendingText = sessionStorage.getItem(PENDING_KEY);
  sessionStorage.removeItem(PENDING_KEY);
  const error = query.get("error");
  if (error) throw new Error(`The identity provider refused the sign-in: ${query.get("error_description") ?? error}`);
  if (!pendingText) throw new Error("No sign-in was in progress in this tab. Start again.");
  const pending = JSON.parse(pendingText) as { verifier: string; state: string; returnTo: string };
  if (query.get("state") !== pending.state) throw new Error("The sign-in answer does not belong to this tab's request (state mismatch). Start again.");
  const code = query.get("code");
  if (!code) throw new Error("The identity provider sent no authorization code.");
  const d = await discover(settings);
  const res = await fetch(d.token_endpoint, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri(), client_id: settings.clientId, code_verifier: pending.verifier }),
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: string; error?: string; error_description?: string };
  if (!res.ok || !body.access_token) throw new Error(`The identity provider did not issue a token: ${body.error_description ?? body.error ?? res.status}`);
  const r = signIn(body.access_token, "oidc");
  if (!r.ok) throw new Error(r.reason);
  return pending.returnTo;
}
