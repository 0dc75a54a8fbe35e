// The signing secret's custody and the signature of contract §10.
import { createHmac, randomBytes } from "node:crypto";
import { AppError } from "../../platform/errors/app-error.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";

/** A fresh signing secret: 32 random bytes, prefixed so it is recognisable in a vault or a log scanner. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/** The AMS_WEBHOOK_ENCRYPTION_KEY bytes (env.ts checked it is 32), or null when not configured. */
export function webhookKeyOrNull(ctx: TenantCtx): Uint8Array | null {
  const b64 = ctx.deps.config.webhookEncryptionKey;
  return b64 ? new Uint8Array(Buffer.from(b64, "base64")) : null;
}

/** The key, or 409 `webhook_key_not_configured`. */
export function webhookKey(ctx: TenantCtx): Uint8Array {
  const key = webhookKeyOrNull(ctx);
  if (!key) throw new AppError("webhook_key_not_configured", "AMS_WEBHOOK_ENCRYPTION_KEY is not configured: webhook endpoints cannot be created or enabled");
  return key;
}

/** `v1=` + hex HMAC-SHA256, keyed with the secret's UTF-8 bytes, over `<timestamp>.<delivery-id>.<raw-body>`. */
export function signatureOf(secret: string, timestamp: number, deliveryId: string, body: string): string {
  return `v1=${createHmac("sha256", Buffer.from(secret, "utf8")).update(`${timestamp}.${deliveryId}.${body}`).digest("hex")}`;
}
