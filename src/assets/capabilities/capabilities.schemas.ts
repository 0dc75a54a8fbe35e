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

export const EligibleUsersQuery = z.strictObject({
  capability: z.enum(AMS_CAPABILITIES as [string, ...string[]]).openapi({ description: "An AMS capability key" }),
});
export const EligibleUser = z
  .object({ membershipId: z.string(), userId: z.string(), displayName: z.string(), role: RoleEnum, capability: z.string() })
  .openapi("EligibleUser");
export const EligibleUserList = z.object({ items: z.array(EligibleUser) }).openapi("EligibleUserList");
