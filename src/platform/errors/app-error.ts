// One error type for the whole service; onError renders it as RFC 9457 problem+json.

export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_cursor: 400,
  idempotency_key_required: 400,
  unauthenticated: 401,
  capability_denied: 403,
  step_up_required: 403,
  partner_access_denied: 403,
  maker_cannot_decide: 403,
  not_holder: 403,
  not_found: 404,
  method_not_allowed: 405,
  version_conflict: 409,
  state_conflict: 409,
  policy_violation: 409,
  idempotency_key_reuse: 409,
  idempotency_in_progress: 409,
  cycle_detected: 409,
  duplicate: 409,
  IMPORT_PREVIEW_REQUIRED: 409,
  webhook_key_not_configured: 409,
  public_base_url_not_configured: 409,
  period_closed: 409,
  book_inactive: 409,
  policy_mismatch: 409,
  policy_inactive: 409,
  carrying_amount_below_floor: 409,
  // Personal reminder channels (planning/notifications): stable safe codes of the spec.
  channel_identity_mismatch: 409,
  channel_unavailable: 409,
  sms_verification_required: 409,
  sms_consent_required: 409,
  sms_policy_blocked: 409,
  challenge_expired: 409,
  provider_failure: 409,
  retry_exhausted: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  evidence_locked: 423,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  partner_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

const TITLES: Record<ErrorCode, string> = {
  validation_failed: "Validation failed",
  invalid_cursor: "Invalid cursor",
  idempotency_key_required: "Idempotency-Key header required",
  unauthenticated: "Unauthenticated",
  capability_denied: "Capability denied",
  step_up_required: "Step-up authentication required",
  partner_access_denied: "Partner access denied",
  maker_cannot_decide: "The maker cannot decide",
  not_holder: "Not the holder",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  version_conflict: "Version conflict",
  state_conflict: "State conflict",
  policy_violation: "Policy violation",
  idempotency_key_reuse: "Idempotency-Key reused with another request",
  idempotency_in_progress: "Request with this Idempotency-Key still in progress",
  cycle_detected: "Cycle detected",
  duplicate: "Duplicate",
  IMPORT_PREVIEW_REQUIRED: "Import preview required",
  webhook_key_not_configured: "Webhook encryption key not configured",
  public_base_url_not_configured: "Public base URL not configured",
  period_closed: "Fiscal period closed",
  book_inactive: "Book not active",
  policy_mismatch: "Policy does not match the book",
  policy_inactive: "Policy not active",
  carrying_amount_below_floor: "Carrying amount would go below its floor",
  channel_identity_mismatch: "Provider identity mismatch or ambiguity",
  channel_unavailable: "Bot chat or direct message unavailable",
  sms_verification_required: "SMS verification required",
  sms_consent_required: "SMS consent required",
  sms_policy_blocked: "Blocked by the SMS country, segment or cost policy",
  challenge_expired: "Challenge expired",
  provider_failure: "Provider failure",
  retry_exhausted: "Retries exhausted",
  payload_too_large: "Payload too large",
  unsupported_media_type: "Unsupported media type",
  evidence_locked: "Evidence locked",
  rate_limited: "Too many requests",
  internal_error: "Internal error",
  service_unavailable: "Service unavailable",
  partner_unavailable: "Partner database unavailable",
};

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: FieldError[];
  readonly headers?: Record<string, string>;
  readonly extras?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    detail?: string,
    opts: { errors?: FieldError[]; headers?: Record<string, string>; extras?: Record<string, unknown> } = {},
  ) {
    super(detail ?? TITLES[code]);
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.errors = opts.errors;
    this.headers = opts.headers;
    this.extras = opts.extras;
  }

  get title(): string {
    return TITLES[this.code];
  }
}

/** 400 validation_failed for one field: path is a JSON Pointer into the request. */
export function invalid(path: string, message: string): AppError {
  return new AppError("validation_failed", message, { errors: [{ path, message }] });
}

export function notFound(what = "record"): AppError {
  return new AppError("not_found", `${what} not found`);
}

export function problemBody(err: AppError, requestId: string): Record<string, unknown> {
  return {
    type: `urn:problem:${err.code}`,
    title: err.title,
    status: err.status,
    code: err.code,
    detail: err.message,
    ...(err.errors ? { errors: err.errors } : {}),
    ...(err.extras ?? {}),
    requestId,
  };
}

/** 409 version_conflict when a command names a version other than the record's (absent: no check). */
export function assertVersion(what: string, record: { version: number }, expected: number | undefined): void {
  if (expected !== undefined && record.version !== expected) {
    throw new AppError("version_conflict", `${what} is at version ${record.version}, not ${expected}`);
  }
}

/** Facts safe for the shared log: the error's class and driver code, never its message (it can carry SQL parameters or paths). */
export function errorFacts(err: unknown): { error: string; code: unknown } {
  const cause = (err as { cause?: { code?: unknown } } | undefined)?.cause;
  return {
    error: err instanceof Error ? err.name : typeof err,
    code: (err as { code?: unknown } | undefined)?.code ?? cause?.code,
  };
}
