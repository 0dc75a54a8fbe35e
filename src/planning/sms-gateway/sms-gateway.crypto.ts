// The gateway's keys, all derived from DATA_KEK by HKDF with their own purpose
// (contract §11): `phone` encrypts phone numbers, `sms-payload` encrypts texts and
// keys the payload digests, `token-pepper` keys native-token digests (platform/auth/device-token.ts). The job id is
// bound into each ciphertext as associated data, so a ciphertext copied onto
// another job does not decrypt.
import { randomBytes } from "node:crypto";
import { derivePurposeKey, hmacDigest } from "../../platform/crypto/keys.ts";
import { decryptValue, encryptValue } from "../../platform/crypto/envelope.ts";
import type { Deps } from "../../platform/deps.ts";

const phoneKey = (deps: Deps) => derivePurposeKey(deps.config.dataKek, "phone");
const payloadKey = (deps: Deps) => derivePurposeKey(deps.config.dataKek, "sms-payload");

export const encryptPhone = (deps: Deps, jobId: string, phone: string) => encryptValue(phoneKey(deps), phone, `sms-job:${jobId}:phone`);
export const decryptPhone = (deps: Deps, jobId: string, ct: string) => decryptValue(phoneKey(deps), ct, `sms-job:${jobId}:phone`);
export const encryptText = (deps: Deps, jobId: string, text: string) => encryptValue(payloadKey(deps), text, `sms-job:${jobId}:text`);
export const decryptText = (deps: Deps, jobId: string, ct: string) => decryptValue(payloadKey(deps), ct, `sms-job:${jobId}:text`);

/** What the device must echo at recheck: a keyed digest (a short text such as a code is not guessable from it). */
export function payloadDigestOf(deps: Deps, phone: string, text: string): string {
  return hmacDigest(payloadKey(deps), JSON.stringify(["sms-payload", phone, text]));
}

/** Same recipient, same text: a duplicate reminder under another logical key. */
export function contentDigestOf(deps: Deps, recipientUserId: string, text: string): string {
  return hmacDigest(payloadKey(deps), JSON.stringify(["sms-content", recipientUserId, text]));
}

/** Native tokens start with it, so a scanner (test/secret-scan.ts) recognises one anywhere. */
export const NATIVE_TOKEN_PREFIX = "smsgw_";

/** A fresh native token (256 random bits); shown once, stored only as its digest. */
export function newNativeToken(): string {
  return NATIVE_TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

/** The digest the registry and the device record keep (the platform's device-token digest). */
export { deviceTokenDigest as nativeTokenDigest } from "../../platform/auth/device-token.ts";
