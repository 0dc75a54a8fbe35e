// What counts as a content-store locator in imported text. Files enter as artifacts
// only, so the JSON import refuses anything that points into an object store or
// carries a signed grant to one: the configured S3 endpoint's host (any scheme,
// port or bucket subdomain, with or without a scheme), object-store schemes and
// well-known object-store hosts, presigned/signed query parameters on any host,
// and this service's own blob keys. Generous on purpose: a false refusal costs a
// reworded description; a stored locator could leak or outlive its grant.
import type { Config } from "../../platform/config.ts";

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** A host name ends where no further label character or `.label` follows. */
const HOST_END = "(?![a-z0-9-]|\\.[a-z0-9])";
const HOST_START = "(?:^|[^a-z0-9.-])";

const SCHEMES = /\b(?:s3[an]?|gs|gcs|azblob|wasbs?|abfss?|minio|file|blob|r2|oss|cos|swift):\/\//i;
/** This service's own blob keys (evidence and artifacts). */
const BLOB_KEYS = /\b(?:evidence|artifact)\/[a-z0-9][a-z0-9-]{1,62}\/[0-9a-f-]{36}\b/i;
/** Object-store hosts: S3 (path- and virtual-hosted style, regional, dual-stack), Azure, GCS, R2 and other S3-compatible clouds. */
const STORE_HOSTS = new RegExp(
  HOST_START +
    "(?:[a-z0-9-]+\\.)*(?:" +
    [
      "s3(?:[.-][a-z0-9-]+)*\\.amazonaws\\.com(?:\\.cn)?",
      "(?:blob|dfs|file)\\.core\\.windows\\.net",
      "storage\\.googleapis\\.com",
      "storage\\.cloud\\.google\\.com",
      "r2\\.cloudflarestorage\\.com",
      "digitaloceanspaces\\.com",
      "backblazeb2\\.com",
      "wasabisys\\.com",
    ].join("|") +
    ")" +
    HOST_END,
  "i",
);
/**
 * Query parameters of presigned or signed URLs: AWS SigV4/SigV2 (X-Amz-*, AWSAccessKeyId,
 * Signature, Expires), CloudFront (Policy, Key-Pair-Id), GCS (X-Goog-*, GoogleAccessId),
 * Azure SAS (sig, se, sp, sv, skoid, sktid).
 */
const SIGNED_PARAMS =
  /(?:[?&;]|&amp;)(?:x-amz-[a-z0-9-]+|x-goog-[a-z0-9-]+|awsaccesskeyid|googleaccessid|signature|expires|policy|key-pair-id|sig|se|sp|sv|skoid|sktid)=/i;

/** The host of S3_ENDPOINT (`https://minio.internal:9000` → `minio.internal`), if one is configured. */
function endpointHost(endpoint: string | undefined): string | null {
  if (!endpoint) return null;
  try {
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`).hostname.replace(/^\[|\]$/g, "").toLowerCase() || null;
  } catch {
    return null;
  }
}

export type LocatorTest = (text: string) => boolean;

/** The locator test for this service's configuration. */
export function locatorTest(config: Pick<Config, "s3">): LocatorTest {
  const host = endpointHost(config.s3.endpoint);
  const endpointRe = host ? new RegExp(`${HOST_START}(?:[a-z0-9-]+\\.)*${escapeRe(host)}${HOST_END}`, "i") : null;
  const test = (s: string) => SCHEMES.test(s) || BLOB_KEYS.test(s) || STORE_HOSTS.test(s) || SIGNED_PARAMS.test(s) || (endpointRe?.test(s) ?? false);
  return (text) => {
    if (test(text)) return true;
    // Percent-encoded spellings (`X%2DAmz%2DSignature`, `s3%3A%2F%2F`) are refused too.
    if (!text.includes("%")) return false;
    try {
      return test(decodeURIComponent(text));
    } catch {
      return false;
    }
  };
}
