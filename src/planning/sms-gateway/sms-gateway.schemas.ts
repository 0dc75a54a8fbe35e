import { z } from "@hono/zod-openapi";
import { Id, Timestamp, freeText, orNull } from "../../platform/http/common-schemas.ts";
import { SMS_ENCODINGS, SMS_JOB_STATES, DEVICE_STATES } from "./sms-gateway.tables.ts";

const Country = z.string().regex(/^[A-Z]{2}$/).openapi({ description: "ISO 3166-1 alpha-2", example: "DE" });
const SafeCode = z.string().openapi({ description: "Stable safe code (e.g. sim_roaming, country_not_allowed, lease_expired)" });

export const NativeTokenParams = z.strictObject({ projectId: Id, deviceId: Id });
export const DeviceParams = z.strictObject({ deviceId: Id });
export const DeviceJobParams = z.strictObject({ deviceId: Id, jobId: Id });

export const DevicePolicyInput = z
  .strictObject({
    allowedCountries: z.array(Country).max(50).optional().openapi({ description: "Countries the device may send to; empty or absent: only its SIM's own country" }),
    maxSegmentsPerMessage: z.number().int().min(1).max(10).optional().openapi({ description: "Default 3" }),
    dailySegmentCeiling: z.number().int().min(1).max(100_000).optional().openapi({ description: "Segments per rolling 24 h (the cost ceiling); default 500" }),
    sendsPerMinute: z.number().int().min(1).max(60).optional().openapi({ description: "Pacing; default 6" }),
  })
  .openapi("SmsDevicePolicyInput");

export const NativeTokenAction = z
  .strictObject({
    action: z.enum(["issue", "rotate", "revoke"]),
    policy: DevicePolicyInput.optional().openapi({ description: "issue and rotate only: replaces the given policy fields" }),
  })
  .openapi("SmsNativeTokenAction");

const Permissions = z
  .strictObject({ sendSms: z.boolean(), readPhoneState: z.boolean(), postNotifications: z.boolean().optional() })
  .openapi("SmsDevicePermissions");

const Sim = z
  .strictObject({
    slot: z.number().int().min(0).max(3),
    country: Country,
    state: z.enum(["active", "inactive", "absent"]),
    verified: z.boolean().openapi({ description: "The device confirmed the SIM's subscriber number with its carrier" }),
    roaming: z.boolean(),
    carrier: freeText(60).optional(),
  })
  .openapi("SmsDeviceSim");

export const DevicePolicy = z
  .object({
    allowedCountries: z.array(Country),
    maxSegmentsPerMessage: z.number().int(),
    dailySegmentCeiling: z.number().int(),
    sendsPerMinute: z.number().int(),
    partnerSendsPerMinute: z.number().int(),
    partnerDailySegmentCeiling: z.number().int(),
    leaseSeconds: z.number().int(),
    heartbeatIntervalSeconds: z.number().int(),
  })
  .openapi("SmsDevicePolicy");

export const SmsDevice = z
  .object({
    id: Id,
    projectId: Id,
    state: z.enum(DEVICE_STATES),
    tokenRevision: z.number().int(),
    tokenIssuedAt: Timestamp.nullable(),
    policy: DevicePolicy,
    lastHeartbeatAt: Timestamp.nullable(),
    online: z.boolean(),
    version: z.number().int(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    createdBy: z.string(),
  })
  .openapi("SmsDevice");

export const NativeTokenResult = z
  .object({
    device: SmsDevice,
    nativeToken: z.string().nullable().openapi({
      description: "issue and rotate: the token, shown in this response only (a replay of the same request answers null); revoke: null",
    }),
  })
  .openapi("SmsNativeTokenResult");

export const Heartbeat = z
  .strictObject({
    online: z.boolean(),
    batteryPercent: z.number().int().min(0).max(100).optional(),
    charging: z.boolean().optional(),
    permissions: Permissions,
    sims: z.array(Sim).max(4),
  })
  .openapi("SmsDeviceHeartbeat");

export const Preflight = z
  .object({
    deviceId: Id,
    state: z.enum(DEVICE_STATES),
    eligible: z.boolean().openapi({ description: "Whether a lease would hand this device jobs now" }),
    code: SafeCode.nullable().openapi({ description: "Why not, when not eligible" }),
    requiredPermissions: z.array(z.string()),
    permissions: orNull(Permissions),
    sims: z.array(Sim),
    country: Country.nullable().openapi({ description: "Country of the SIM the device would send from" }),
    policy: DevicePolicy,
    lastHeartbeatAt: Timestamp.nullable(),
    online: z.boolean(),
    batteryPercent: z.number().int().nullable(),
    charging: z.boolean().nullable(),
  })
  .openapi("SmsDevicePreflight");

export const LeaseRequest = z
  .strictObject({ max: z.number().int().min(1).max(10).optional().openapi({ description: "Jobs to take at most (default 5)" }) })
  .openapi("SmsLeaseRequest");

const LeasedJob = z
  .object({
    jobId: Id,
    leaseId: Id,
    leaseExpiresAt: Timestamp,
    phoneE164: z.string().openapi({ description: "The recipient; only ever sent to the device holding the lease" }),
    text: z.string(),
    payloadDigest: z.string(),
    identityVersion: z.number().int().openapi({ description: "The recipient binding's identity version the job was queued for (changes only with a new number)" }),
    cancellationRevision: z.number().int().openapi({ description: "The binding's cancellation revision the job was queued under (changes on every opt-out, unlink, relink or revocation)" }),
    encoding: z.enum(SMS_ENCODINGS),
    segments: z.number().int(),
    expiresAt: Timestamp,
  })
  .openapi("SmsLeasedJob");

export const LeaseResult = z
  .object({
    jobs: z.array(LeasedJob),
    blocked: z
      .object({ code: SafeCode, detail: z.string() })
      .nullable()
      .openapi({ description: "Why this device gets no (more) jobs now: device, SIM, pacing or cost reasons" }),
    retryAfterSeconds: z.number().int().nullable(),
  })
  .openapi("SmsLeaseResult");

export const Recheck = z
  .strictObject({
    leaseId: Id,
    payloadDigest: z.string().regex(/^[0-9a-f]{64}$/),
    cancellationRevision: z.number().int().min(0),
    identityVersion: z.number().int().min(0).optional().openapi({ description: "The identity version from the lease; when given it must still be the job's" }),
  })
  .openapi("SmsRecheck");

export const RecheckResult = z
  .object({
    jobId: Id,
    proceed: z.boolean().openapi({ description: "true: send now; false: do not send" }),
    code: SafeCode.nullable(),
    state: z.enum(SMS_JOB_STATES),
  })
  .openapi("SmsRecheckResult");

export const Receipt = z
  .strictObject({
    leaseId: Id,
    clientMessageId: z.string().regex(/^[\x21-\x7e]{1,100}$/).openapi({ description: "The device's id for the message; idempotency key of receipts per device" }),
    status: z.enum(["sent", "delivered", "failed"]),
    androidResultCode: z.number().int().min(-1).max(100_000).optional().openapi({ description: "Raw SmsManager result code" }),
    carrierResultCode: z.string().regex(/^[\x21-\x7e]{1,32}$/).optional().openapi({ description: "Raw carrier status (e.g. TP-Status) as reported" }),
  })
  .openapi("SmsReceipt");

export const ReceiptResult = z
  .object({
    jobId: Id,
    state: z.enum(SMS_JOB_STATES),
    code: SafeCode.nullable(),
    attempt: z.object({
      leaseId: Id,
      clientMessageId: z.string().nullable(),
      outcome: z.string(),
      sentAt: Timestamp.nullable(),
      deliveredAt: Timestamp.nullable(),
      failedAt: Timestamp.nullable(),
      androidResultCode: z.number().int().nullable(),
      carrierResultCode: z.string().nullable(),
    }),
  })
  .openapi("SmsReceiptResult");

