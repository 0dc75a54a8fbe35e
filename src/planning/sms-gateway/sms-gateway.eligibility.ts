// Whether a device may take jobs now, shared by the lease (per device) and by
// enqueueing (is there any device a new job could go to?).
import type { z } from "@hono/zod-openapi";
import type { TenantCtx } from "../../platform/tenancy/tenant-context.ts";
import type { smsGatewayDevices } from "./sms-gateway.tables.ts";
import type { Heartbeat } from "./sms-gateway.schemas.ts";
import { HEARTBEAT_TTL_SECONDS } from "./sms-gateway.policy.ts";

export type DeviceRow = typeof smsGatewayDevices.$inferSelect;
export type Sim = z.output<typeof Heartbeat>["sims"][number];
export type Permissions = z.output<typeof Heartbeat>["permissions"];

export const REQUIRED_PERMISSIONS = ["sendSms", "readPhoneState"] as const;
export const addSeconds = (iso: string, s: number) => new Date(new Date(iso).getTime() + s * 1000).toISOString();

/** Why the device cannot take jobs now (a safe code and a readable detail), or null with the SIM it sends from. */
export function eligibility(ctx: TenantCtx, d: DeviceRow): { code: string; detail: string } | { code: null; sim: Sim } {
  if (d.state !== "active") return { code: "device_revoked", detail: "the device's token was revoked" };
  if (!d.online || !d.lastHeartbeatAt || d.lastHeartbeatAt <= addSeconds(ctx.nowIso, -HEARTBEAT_TTL_SECONDS)) {
    return { code: "device_offline", detail: `no online heartbeat in the last ${HEARTBEAT_TTL_SECONDS} s` };
  }
  const permissions = JSON.parse(d.permissions) as Permissions | null;
  const missing = REQUIRED_PERMISSIONS.filter((p) => !permissions?.[p]);
  if (missing.length > 0) return { code: "permission_missing", detail: `the device lacks ${missing.join(", ")}` };
  const sims = JSON.parse(d.sims) as Sim[];
  const active = sims.filter((s) => s.state === "active");
  const usable = active.find((s) => s.verified && !s.roaming);
  if (usable) return { code: null, sim: usable };
  if (active.length === 0) return { code: "no_active_sim", detail: "the device reports no active SIM" };
  if (active.every((s) => s.roaming)) return { code: "sim_roaming", detail: "every active SIM is roaming; the gateway never sends while roaming" };
  return { code: "sim_unverified", detail: "no active SIM is verified" };
}

/** The countries a device sends to: its allowlist, or its SIM's own country when the list is empty. */
export function countriesOf(d: DeviceRow, sim: Sim): string[] {
  const allowed = JSON.parse(d.allowedCountries) as string[];
  return allowed.length > 0 ? allowed : [sim.country];
}
