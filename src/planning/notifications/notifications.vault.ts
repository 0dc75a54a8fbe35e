// Secrets of the vault: purpose keys (HKDF from DATA_KEK), sealing and opening
// locators, one-time codes kept as HMAC digests, masks, and the SMS country policy.
// Nothing here returns a secret to a caller outside this folder.
import { randomInt } from "node:crypto";
import { derivePurposeKey, hmacDigest, hmacEqual } from "../../platform/crypto/keys.ts";
import { decryptValue, encryptValue } from "../../platform/crypto/envelope.ts";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";

/** Which purpose key seals a locator: phone numbers and direct-message locators never share one. */
export type LocatorKind = "phone" | "dm-locator";

/** AES-256-GCM under the purpose key; the owning row's id is the AAD, so a ciphertext cannot be moved to another row. */
export function sealLocator(ctx: TenantCtx, kind: LocatorKind, ownerId: string, plaintext: string): string {
  return encryptValue(derivePurposeKey(ctx.deps.config.dataKek, kind), plaintext, ownerId);
}

export function openLocator(ctx: TenantCtx, kind: LocatorKind, ownerId: string, sealed: string): string {
  return decryptValue(derivePurposeKey(ctx.deps.config.dataKek, kind), sealed, ownerId);
}

/** HMAC of a one-time code, bound to its binding and purpose: the only form a code is stored in. */
export function codeDigest(ctx: TenantCtx, ownerId: string, purpose: string, code: string): string {
  return hmacDigest(derivePurposeKey(ctx.deps.config.dataKek, "token-pepper"), `planning-channel\u0000${purpose}\u0000${ownerId}\u0000${code.trim().toUpperCase()}`);
}

export function codeMatches(ctx: TenantCtx, ownerId: string, purpose: string, code: string, digest: string | null): boolean {
  if (!digest) return false;
  return hmacEqual(codeDigest(ctx, ownerId, purpose, code), digest);
}

const LINK_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A messenger link code: 10 characters of an unambiguous alphabet (about 50 bits). */
export function newLinkCode(): string {
  let s = "";
  for (let i = 0; i < 10; i++) s += LINK_ALPHABET[randomInt(LINK_ALPHABET.length)];
  return s;
}

/** A 6-digit SMS verification code. */
export function newSmsCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

// ---------------------------------------------------------------- masks

export function maskPhone(e164: string): string {
  return `+${"•".repeat(Math.max(0, e164.length - 3))}${e164.slice(-2)}`;
}

export function maskId(label: string, id: string): string {
  return `${label} ••${id.slice(-2)}`;
}

export function maskEmail(address: string): string {
  const at = address.lastIndexOf("@");
  if (at <= 0) return "•••";
  return `${address[0]}•••@${address.slice(at + 1)}`;
}

// ---------------------------------------------------------------- SMS country policy

/**
 * The SMS country allowlist (ISO 3166-1 alpha-2 → calling code). Decision: the
 * spec names an allowlist without its members; these are the countries the
 * gateway's SIMs are expected to reach without roaming or premium pricing.
 */
export const SMS_COUNTRIES: Readonly<Record<string, string>> = {
  AT: "43",
  BE: "32",
  CA: "1",
  CH: "41",
  DE: "49",
  DK: "45",
  ES: "34",
  FI: "358",
  FR: "33",
  GB: "44",
  IE: "353",
  IT: "39",
  NL: "31",
  NO: "47",
  PL: "48",
  PT: "351",
  SE: "46",
  US: "1",
};

export const E164_RE = /^\+[1-9]\d{6,14}$/;
