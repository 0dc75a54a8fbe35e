// The queue's numbers (contract §12 fixes only the default expiry; the rest are
// this module's decisions, listed in README.md).
export const DEFAULT_EXPIRY_MS = 24 * 3600 * 1000;
/** A lease the device has not confirmed (recheck) by then returns the job to the queue. */
export const LEASE_SECONDS = 120;
/** A heartbeat older than this makes the device offline for leasing. */
export const HEARTBEAT_TTL_SECONDS = 120;
/** Sent (or confirmed-sending) with no report for this long → sent_unconfirmed. */
export const DELIVERY_WINDOW_SECONDS = 30 * 60;
/** Unconfirmed lease expiries a job survives; the next one fails it with `lease_expired`. */
export const MAX_LEASE_EXPIRIES = 3;
/** Send failures (before any `sent`) a job survives with retry_wait; then `retry_exhausted`. */
export const MAX_SEND_ATTEMPTS = 3;
/** retry_wait backoff: 1 min, 4 min, 16 min … */
export const RETRY_BASE_SECONDS = 60;
export const RETRY_FACTOR = 4;
/** No text longer than this many segments is ever queued for sending. */
export const MAX_SEGMENTS_ANY_DEVICE = 10;
export const MAX_TEXT_CHARACTERS = 1600;
/** Queue limits: open (non-final) jobs per partner and per recipient. */
export const MAX_OPEN_JOBS_PER_PARTNER = 10_000;
export const MAX_OPEN_JOBS_PER_RECIPIENT = 50;
/** Partner-wide pacing and cost ceilings over every device. */
export const PARTNER_SENDS_PER_MINUTE = 60;
export const PARTNER_DAILY_SEGMENT_CEILING = 5_000;
/** Device defaults when the native-token issue names none. */
export const DEVICE_DEFAULTS = { maxSegmentsPerMessage: 3, dailySegmentCeiling: 500, sendsPerMinute: 6 } as const;
/** Jobs one lease call hands out at most. */
export const MAX_JOBS_PER_LEASE = 10;
/** Android SmsManager send results worth another attempt: generic failure, radio off, no service. */
export const RETRYABLE_ANDROID_RESULTS = new Set([1, 2, 4]);
export const SWEEP_BATCH = 500;
