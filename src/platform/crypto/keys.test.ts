import { describe, expect, test } from "bun:test";
import { createHash, randomBytes } from "node:crypto";
import { derivePurposeKey, hmacDigest, hmacEqual, kekId, parseKek, sha256Hex, type KeyPurpose } from "./keys.ts";

const PURPOSES: KeyPurpose[] = ["cursor", "phone", "dm-locator", "token-pepper", "idempotency", "webhook-secret"];

describe("parseKek", () => {
  test("accepts standard and url-safe base64 of 32 bytes", () => {
    const raw = randomBytes(32);
    expect(Buffer.from(parseKek(raw.toString("base64"))).equals(raw)).toBe(true);
    expect(Buffer.from(parseKek(`  ${raw.toString("base64")}\n`)).equals(raw)).toBe(true);
    expect(Buffer.from(parseKek(raw.toString("base64url"))).equals(raw)).toBe(true);
  });

  test("rejects wrong length, garbage and empty input without echoing it", () => {
    const short = randomBytes(16).toString("base64");
    expect(() => parseKek(short)).toThrow(/exactly 32 bytes \(got 16\)/);
    expect(() => parseKek(randomBytes(33).toString("base64"))).toThrow(/exactly 32 bytes/);
    expect(() => parseKek("not base64 at all!!")).toThrow(/not valid base64/);
    expect(() => parseKek("")).toThrow(/empty/);
    try {
      parseKek(short);
    } catch (err) {
      expect((err as Error).message).not.toContain(short);
    }
  });
});

describe("kekId", () => {
  test("is short, stable and key-specific", () => {
    const a = randomBytes(32);
    const b = randomBytes(32);
    expect(kekId(a)).toMatch(/^[0-9a-f]{16}$/);
    expect(kekId(a)).toBe(kekId(Uint8Array.from(a)));
    expect(kekId(a)).not.toBe(kekId(b));
    const expected = createHash("sha256").update("kek-id").update(a).digest("hex").slice(0, 16);
    expect(kekId(a)).toBe(expected);
  });
});

describe("derivePurposeKey", () => {
  test("every purpose yields a distinct 32-byte key", () => {
    const kek = randomBytes(32);
    const keys = PURPOSES.map((p) => derivePurposeKey(kek, p).toString("hex"));
    expect(new Set(keys).size).toBe(PURPOSES.length);
    for (const k of keys) expect(k).toHaveLength(64);
  });

  test("deterministic per KEK, different across KEKs, not equal to the KEK", () => {
    const kek = randomBytes(32);
    const other = randomBytes(32);
    expect(derivePurposeKey(kek, "cursor").equals(derivePurposeKey(Uint8Array.from(kek), "cursor"))).toBe(true);
    expect(derivePurposeKey(kek, "cursor").equals(derivePurposeKey(other, "cursor"))).toBe(false);
    expect(derivePurposeKey(kek, "cursor").equals(kek)).toBe(false);
  });

  test("cache cannot be poisoned by mutating a returned key or the KEK", () => {
    const kek = new Uint8Array(randomBytes(32));
    const first = derivePurposeKey(kek, "phone");
    const snapshot = Buffer.from(first);
    first.fill(0);
    expect(derivePurposeKey(kek, "phone").equals(snapshot)).toBe(true);
    kek[0] = (kek[0] ?? 0) ^ 0xff; // same object, different bytes -> different key
    expect(derivePurposeKey(kek, "phone").equals(snapshot)).toBe(false);
  });

  test("rejects unknown purposes and bad KEKs", () => {
    expect(() => derivePurposeKey(randomBytes(32), "nope" as KeyPurpose)).toThrow(/unknown key purpose/);
    expect(() => derivePurposeKey(randomBytes(16), "cursor")).toThrow(/32 bytes/);
  });
});

describe("hmac / sha256", () => {
  test("hmacDigest is hex, keyed and input-sensitive; string and bytes agree", () => {
    const key = derivePurposeKey(randomBytes(32), "token-pepper");
    const d = hmacDigest(key, "tok_123");
    expect(d).toMatch(/^[0-9a-f]{64}$/);
    expect(hmacDigest(key, new TextEncoder().encode("tok_123"))).toBe(d);
    expect(hmacDigest(key, "tok_124")).not.toBe(d);
    expect(hmacDigest(randomBytes(32), "tok_123")).not.toBe(d);
  });

  test("hmacEqual", () => {
    const key = randomBytes(32);
    const d = hmacDigest(key, "code-481516");
    expect(hmacEqual(d, hmacDigest(key, "code-481516"))).toBe(true);
    expect(hmacEqual(d, hmacDigest(key, "code-481517"))).toBe(false);
    expect(hmacEqual(d, d.slice(0, 10))).toBe(false);
    expect(hmacEqual(Buffer.from(d, "hex"), Buffer.from(d, "hex"))).toBe(true);
  });

  test("sha256Hex matches known vector", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
