// What the console reads from the bearer token it holds. It never verifies the token (the
// API does): it only needs the expiry, the user and the step-up facts to decide what to
// show before a call would fail.

export interface Claims {
  sub: string;
  sid?: string;
  iat?: number;
  exp: number;
  aal?: string;
  amr?: string[];
  auth_time?: number;
}

/** Contract §4: step-up holds for this long after the last authentication. */
export const STEP_UP_MAX_AGE_SECONDS = 900;
const STEP_UP_METHODS = ["passkey", "mfa", "otp"];

function base64UrlDecode(part: string): string {
  const b64 = part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "=");
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The token's claims, or null when it is not a JWT with `sub` and a numeric `exp`. */
export function decodeClaims(token: string): Claims | null {
  const parts = token.trim().split(".");
  if (parts.length !== 3) return null;
  try {
    const payload = JSON.parse(base64UrlDecode(parts[1]!)) as Record<string, unknown>;
    if (typeof payload.sub !== "string" || typeof payload.exp !== "number") return null;
    return {
      sub: payload.sub,
      sid: typeof payload.sid === "string" ? payload.sid : undefined,
      iat: typeof payload.iat === "number" ? payload.iat : undefined,
      exp: payload.exp,
      aal: typeof payload.aal === "string" ? payload.aal : undefined,
      amr: Array.isArray(payload.amr) ? payload.amr.filter((m): m is string => typeof m === "string") : undefined,
      auth_time: typeof payload.auth_time === "number" ? payload.auth_time : undefined,
    };
  } catch {
    return null;
  }
}

/**
 * Until when (epoch seconds) the token passes the API's step-up check: AAL2, a passkey,
 * MFA or OTP among `amr`, and `auth_time` within the last 15 minutes. Null when it never does.
 */
export function stepUpUntil(claims: Claims): number | null {
  if (claims.aal !== "aal2" || claims.auth_time === undefined) return null;
  if (!(claims.amr ?? []).some((m) => STEP_UP_METHODS.includes(m))) return null;
  return Math.min(claims.auth_time + STEP_UP_MAX_AGE_SECONDS, claims.exp);
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
