import type { AnyRoute } from "../../platform/http/define-route.ts";
import { manageSmsDeviceNativeToken } from "./routes/manage-sms-device-native-token.ts";
import { getSmsDevicePreflight } from "./routes/get-sms-device-preflight.ts";
import { recordSmsDeviceHeartbeat } from "./routes/record-sms-device-heartbeat.ts";
import { leaseSmsJobs } from "./routes/lease-sms-jobs.ts";
import { recheckSmsJob } from "./routes/recheck-sms-job.ts";
import { recordSmsReceipt } from "./routes/record-sms-receipt.ts";

export const routes: AnyRoute[] = [manageSmsDeviceNativeToken, getSmsDevicePreflight, recordSmsDeviceHeartbeat, leaseSmsJobs, recheckSmsJob, recordSmsReceipt];
