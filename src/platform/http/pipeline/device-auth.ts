// Contract §5, token, on a device route (the SMS gateway): the bearer native token names
// the partner and the device (registry digest look-up, src/platform/auth/device-token.ts),
// so there is no partnerId, session or capability. Device routes take no Idempotency-Key:
// their own ids (lease ids, client message ids) make retries safe.
import type { Context } from "hono";
import { AppError } from "../../errors/app-error.ts";
import { authenticateDevice, type DeviceCaller } from "../../auth/device-token.ts";
import type { Deps } from "../../deps.ts";
import type { RequestFacts } from "../access-log.ts";

/** The calling device, 401 unless its token is current and its partner still exists; the access log learns both. */
export async function authenticateDeviceRequest(deps: Deps, c: Context, facts: RequestFacts | undefined): Promise<DeviceCaller> {
  const device = await authenticateDevice(deps, c.req.header("authorization"));
  if (!(await deps.tenancy.partnerExists(device.partnerId))) throw new AppError("unauthenticated", "the device token is unknown, rotated or revoked");
  if (facts) {
    facts.partnerId = device.partnerId;
    facts.userId = `device:${device.deviceId}`;
  }
  return device;
}
