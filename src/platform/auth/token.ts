// Dashboard token verification (jose): HS256 secret or remote JWKS, issuer and
// audience when configured. Verified tokens are cached until they expire, so the
// hot path pays for a signature check once per token.
import { jwtVerify, createRemoteJWKSet, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { AppError } from "../errors/app-error.ts";

export interface Claims {
  sub: string;
  sid: string;
  iat: number;
  exp: number;
  aal: "aal1" | "aal2";
  amr: string[];
  authTime: number;
}

export interface TokenVerifierOptions {
  secret?: string;
  jwksUrl?: string;
  issuer?: string;
  audience?: string;
  /** Longest accepted exp − iat, in seconds (default DEFAULT_MAX_TOKEN_LIFETIME_SECONDS). */
  maxLifetimeSeconds?: number;
}

const STEP_UP_METHODS = new Set(["passkey", "mfa", "otp"]);
export const STEP_UP_MAX_AGE_SECONDS = 900;
/** Tolerated difference between the identity provider's clock and ours. */
export const CLOCK_SKEW_SECONDS = 60;
/** Default of DASHBOARD_JWT_MAX_LIFETIME_SECONDS: a stolen token is worth at most a day. */
export const DEFAULT_MAX_TOKEN_LIFETIME_SECONDS = 86_400;

/** Contract §4: aal2, a strong method in amr, and authenticated within 15 minutes. */
export function hasRecentStepUp(claims: Claims, nowSeconds: number): boolean {
  return (
    claims.aal === "aal2" &&
    claims.amr.some((m) => STEP_UP_METHODS.has(m)) &&
    nowSeconds - claims.authTime <= STEP_UP_MAX_AGE_SECONDS
  );
}

function toClaims(p: JWTPayload): Claims {
  const aal = p.aal;
  const amr = p.amr;
  const authTime = p.auth_time;
  if (
    typeof p.sub !== "string" || p.sub.length === 0 ||
    typeof p.sid !== "string" || p.sid.length === 0 ||
    typeof p.iat !== "number" ||
    typeof p.exp !== "number" ||
    (aal !== "aal1" && aal !== "aal2") ||
    !Array.isArray(amr) || !amr.every((m) => typeof m === "string") ||
    typeof authTime !== "number"
  ) {
    throw new AppError("unauthenticated", "token lacks required claims (sub, sid, iat, exp, aal, amr, auth_time)");
  }
  return {
    sub: p.sub,
    sid: p.sid,
    iat: p.iat,
    exp: p.exp,
    aal,
    amr: amr as string[],
    authTime,
  };
}

export class TokenVerifier {
  #key: Uint8Array | JWTVerifyGetKey;
  #opts: TokenVerifierOptions;
  #cache = new Map<string, Claims>();
  static readonly CACHE_MAX = 10_000;

  constructor(opts: TokenVerifierOptions) {
    this.#opts = opts;
    if (opts.jwksUrl) this.#key = createRemoteJWKSet(new URL(opts.jwksUrl));
    else if (opts.secret) this.#key = new TextEncoder().encode(opts.secret);
    else throw new Error("no JWT secret or JWKS configured");
  }

  async verify(authorization: string | undefined, nowSeconds: number): Promise<Claims> {
    // A cached token holds no whitespace, so "Bearer " + it is exactly what the pattern
    // below accepts with that token: the usual spelling skips the pattern.
    const usual = authorization?.startsWith("Bearer ") ? this.#cache.get(authorization.slice(7)) : undefined;
    if (usual && usual.exp > nowSeconds) return usual;
    // The scheme name is case-insensitive (RFC 9110 §11.1).
    const match = authorization ? /^bearer[ \t]+(\S+)\s*$/i.exec(authorization) : null;
    if (!match) throw new AppError("unauthenticated", "bearer token required");
    const token = match[1]!;
    const cached = this.#cache.get(token);
    if (cached) {
      if (cached.exp > nowSeconds) return cached;
      this.#cache.delete(token);
      throw new AppError("unauthenticated", "token expired");
    }
    let payload: JWTPayload;
    try {
      const key = this.#key;
      const options = {
        issuer: this.#opts.issuer,
        audience: this.#opts.audience,
        currentDate: new Date(nowSeconds * 1000),
        algorithms: key instanceof Uint8Array ? ["HS256"] : undefined,
        requiredClaims: ["sub", "sid", "iat", "exp", "auth_time"],
      };
      payload =
        key instanceof Uint8Array ? (await jwtVerify(token, key, options)).payload : (await jwtVerify(token, key, options)).payload;
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError("unauthenticated", "invalid or expired token");
    }
    const claims = toClaims(payload);
    // An authentication time in the future would pass step-up for the token's whole life.
    if (claims.authTime > nowSeconds + CLOCK_SKEW_SECONDS) throw new AppError("unauthenticated", "auth_time is in the future");
    // A long-lived token is a long-lived theft. iat in the future would let a short
    // exp − iat hide a long life (jose checks iat only with maxTokenAge).
    const maxLifetime = this.#opts.maxLifetimeSeconds ?? DEFAULT_MAX_TOKEN_LIFETIME_SECONDS;
    if (claims.exp - claims.iat > maxLifetime) throw new AppError("unauthenticated", `token lifetime (exp - iat) exceeds ${maxLifetime} seconds`);
    if (claims.iat > nowSeconds + CLOCK_SKEW_SECONDS) throw new AppError("unauthenticated", "token issued in the future (iat)");
    if (this.#cache.size >= TokenVerifier.CACHE_MAX) this.#cache.clear();
    this.#cache.set(token, claims);
    return claims;
  }
}
