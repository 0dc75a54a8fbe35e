// Device credentials (SMS gateway native tokens, contract §8 and §11): the token
// is random, shown once, and stored only as an HMAC digest under the
// `token-pepper` purpose key. The registry maps a digest to its partner and
// device, so a device call needs no partnerId and no dashboard session.
import { and, eq } from "drizzle-orm";
import { derivePurposeKey, hmacDigest } from "../crypto/keys.ts";
import { AppError } from "../errors/app-error.ts";
import { deviceTokens } from "../tenancy/registry.tables.ts";
import type { Deps } from "../deps.ts";

/** Who a device request is: resolved from its bearer token by the pipeline. */
export interface DeviceCaller {
  partnerId: string;
  deviceId: string;
  /** Digest of the presented token; the partner's own device record must still hold it. */
  tokenDigest: string;
}

const TOKEN_RE = /^[A-Za-z0-9_-]{20,200}$/;

export function deviceTokenDigest(deps: Deps, token: string): string {
  return hmacDigest(derivePurposeKey(deps.config.dataKek, "token-pepper"), `device-token:${token}`);
}

/** Bearer token → device, or 401. The message never echoes the token. */
export async function authenticateDevice(deps: Deps, authorization: string | undefined): Promise<DeviceCaller> {
  const m = /^Bearer ([^\s]+)$/.exec(authorization ?? "");
  if (!m || !TOKEN_RE.test(m[1]!)) throw new AppError("unauthenticated", "a device token is required (Authorization: Bearer <native token>)");
  const digest = deviceTokenDigest(deps, m[1]!);
  const row = (
    await deps.tenancy.registry.read
      .select({ partnerId: deviceTokens.partnerId, deviceId: deviceTokens.deviceId })
      .from(deviceTokens)
      .where(and(eq(deviceTokens.digest, digest), eq(deviceTokens.state, "active")))
  )[0];
  if (!row) throw new AppError("unauthenticated", "the device token is unknown, rotated or revoked");
  return { partnerId: row.partnerId, deviceId: row.deviceId, tokenDigest: digest };
}

/** Registers a freshly issued token's digest. */
export async function registerDeviceToken(deps: Deps, t: { digest: string; partnerId: string; deviceId: string; now: string }): Promise<void> {
  await deps.tenancy.registryWrite((tx) =>
    tx.insert(deviceTokens).values({ digest: t.digest, partnerId: t.partnerId, deviceId: t.deviceId, state: "active", createdAt: t.now }),
  );
}

/** Revokes every active token of the device except `keep` (rotation keeps the new one). */
export async function revokeDeviceTokens(deps: Deps, t: { partnerId: string; deviceId: string; now: string; keep?: string }): Promise<void> {
  await deps.tenancy.registryWrite(async (tx) => {
    const active = await tx
      .select({ digest: deviceTokens.digest })
      .from(deviceTokens)
      .where(and(eq(deviceTokens.partnerId, t.partnerId), eq(deviceTokens.deviceId, t.deviceId), eq(deviceTokens.state, "active")));
    for (const { digest } of active) {
      if (digest === t.keep) continue;
      await tx.update(deviceTokens).set({ state: "revoked", revokedAt: t.now }).where(eq(deviceTokens.digest, digest));
    }
  });
}
