// The signed-in session: the bearer token (sessionStorage only: it ends with the tab and is
// never written to localStorage, a cookie or the URL), its claims, and the chosen partner.
// One store with subscribers, so the client, the shell and the pages agree.
import { decodeClaims, nowSeconds, type Claims } from "./token.ts";

export type SignInSource = "token" | "oidc";

export interface Session {
  token: string;
  claims: Claims;
  source: SignInSource;
}

const TOKEN_KEY = "console.token";
const SOURCE_KEY = "console.source";
const PARTNER_KEY = "console.partner";
const NOTICE_KEY = "console.notice";

type Listener = () => void;
const listeners = new Set<Listener>();
let current: Session | null = null;
let partner: string | null = null;
let expiryTimer: ReturnType<typeof setTimeout> | undefined;

function emit(): void {
  for (const l of [...listeners]) l();
}

export function subscribeSession(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function currentSession(): Session | null {
  return current;
}

export function currentPartner(): string | null {
  return partner;
}

/** Why the last session ended (shown once on the sign-in page). */
export function takeNotice(): string | null {
  const n = sessionStorage.getItem(NOTICE_KEY);
  if (n !== null) sessionStorage.removeItem(NOTICE_KEY);
  return n;
}

function armExpiry(claims: Claims): void {
  clearTimeout(expiryTimer);
  // setTimeout holds at most ~24.8 days; re-armed on every load anyway.
  const ms = Math.min((claims.exp - nowSeconds()) * 1000, 2 ** 31 - 1);
  expiryTimer = setTimeout(() => signOut(`Your session expired at ${new Date(claims.exp * 1000).toLocaleTimeString()}. Sign in again.`), Math.max(ms, 0));
}

export type SignInResult = { ok: true; session: Session } | { ok: false; reason: string };

/** Checks the token's shape and expiry (the API checks the rest on the first call). */
export function signIn(token: string, source: SignInSource): SignInResult {
  const trimmed = token.trim().replace(/^Bearer\s+/i, "");
  const claims = decodeClaims(trimmed);
  if (!claims) return { ok: false, reason: "This is not a bearer token: paste the whole token (three parts separated by dots)." };
  if (claims.exp <= nowSeconds()) return { ok: false, reason: `This token expired at ${new Date(claims.exp * 1000).toLocaleString()}. Mint a fresh one (npm run token -- <userId>).` };
  current = { token: trimmed, claims, source };
  sessionStorage.setItem(TOKEN_KEY, trimmed);
  sessionStorage.setItem(SOURCE_KEY, source);
  sessionStorage.removeItem(NOTICE_KEY);
  armExpiry(claims);
  emit();
  return { ok: true, session: current };
}

/** Ends the session; `notice` says why on the sign-in page. */
export function signOut(notice?: string): void {
  clearTimeout(expiryTimer);
  current = null;
  partner = null;
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(SOURCE_KEY);
  sessionStorage.removeItem(PARTNER_KEY);
  if (notice) sessionStorage.setItem(NOTICE_KEY, notice);
  emit();
}

export function choosePartner(partnerId: string | null): void {
  partner = partnerId;
  if (partnerId) sessionStorage.setItem(PARTNER_KEY, partnerId);
  else sessionStorage.removeItem(PARTNER_KEY);
  emit();
}

/** Restores the tab's session after a reload; an expired token is dropped with a notice. */
export function restoreSession(): void {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return;
  const source = (sessionStorage.getItem(SOURCE_KEY) as SignInSource | null) ?? "token";
  const saved = sessionStorage.getItem(PARTNER_KEY);
  const r = signIn(token, source);
  if (!r.ok) {
    signOut("Your session expired. Sign in again.");
    return;
  }
  partner = saved;
}
