import { z } from "@hono/zod-openapi";
import { CAPABILITIES, AMS_CAPABILITIES, ROLES } from "../../platform/auth/capabilities.ts";
import { Instant, freeText } from "../../platform/http/common-schemas.ts";

export const CapabilityKey = z.enum(CAPABILITIES as [string, ...string[]]);
const RoleEnum = z.enum(ROLES);

export const CapabilityEntry = z
  .object({
    key: CapabilityKey,
    roleDefaults: z.array(RoleEnum),
    grants: z.array(z.object({ userId: z.string(), expiresAt: z.string().nullable() })),
    version: z.number().int().openapi({ description: "0 while the built-in defaults apply" }),
  })
  .openapi("CapabilityEntry");
export const CapabilityList = z.object({ items: z.array(CapabilityEntry) }).openapi("CapabilityList");

export const CapabilityParams = z.strictObject({ key: CapabilityKey });
export const ReplaceCapability = z
  .strictObject({
    roleDefaults: z.array(RoleEnum).max(ROLES.length),
    grants: z.array(z.strictObject({ userId: freeText(255), expiresAt: Instant.nullable() })).max(500),
  })
  .openapi("ReplaceCapability");

/** Records a second member decides, whose maker(s) a reviewer picker leaves out. */
export const MAKER_RECORD_TYPES = ["workflow_case", "policy", "audit_result", "evidence"] as const;
export type MakerRecordType = (typeof MAKER_RECORD_TYPES)[number];
const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
export const MAKER_OF_RE = new RegExp(`^(${MAKER_RECORD_TYPES.join("|")}):(${UUID})$`);

export const EligibleUsersQuery = z.strictObject({
  capability: z.enum(AMS_CAPABILITIES as [string, ...string[]]).openapi({ description: "An AMS capability key" }),
  excludeMakerOf: z
    .string()
    .regex(MAKER_OF_RE, `must be <type>:<id> with type one of ${MAKER_RECORD_TYPES.join(", ")}`)
    .optional()
    .openapi({
      description:
        "`<type>:<id>` of a record a second member decides (" +
        MAKER_RECORD_TYPES.join(", ") +
        "): its maker is left out — the case's maker, the policy's author, every member who counted the audit result's item, the evidence's uploader — " +
        "so the list is the reviewer picker for that record. The record must exist and be visible to the caller (404 otherwise: a workflow case the caller " +
        "neither made nor may decide, restricted evidence without ams_admin); a malformed value is 400.",
      example: "workflow_case:01936f0e-7a2b-7c3d-9e4f-0a1b2c3d4e5f",
    }),
});
export const EligibleUser = z
  .object({ membershipId: z.string(), userId: z.string(), displayName: z.string(), role: RoleEnum, capability: z.string() })
  .openapi("EligibleUser");
export const EligibleUserList = z.object({ items: z.array(EligibleUser) }).openapi("EligibleUserList");
