// Mints dashboard tokens with the configured HS256 secret (development, tests, CLI).
import { SignJWT } from "jose";

export interface MintOptions {
  aal?: "aal1" | "aal2";
  amr?: string[];
  /** Seconds since the last authentication (auth_time = now - age). */
  ageSeconds?: number;
  ttlSeconds?: number;
  sessionId?: string;
  now?: Date;
  issuer?: string;
  audience?: string;
}

export async function mintToken(secret: string, userId: string, opts: MintOptions = {}): Promise<string> {
  const nowS = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  let jwt = new SignJWT({
    sid: opts.sessionId ?? crypto.randomUUID(),
    aal: opts.aal ?? "aal2",
    amr: opts.amr ?? ["passkey"],
    auth_time: nowS - (opts.ageSeconds ?? 0),
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(userId)
    .setIssuedAt(nowS)
    .setExpirationTime(nowS + (opts.ttlSeconds ?? 3600));
  if (opts.issuer) jwt = jwt.setIssuer(opts.issuer);
  if (opts.audience) jwt = jwt.setAudience(opts.audience);
  return jwt.sign(new TextEncoder().encode(secret));
}
