// The published surface of planning/sms-gateway: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { cancelSms, enqueueSms, setSmsBinding, smsJobState, smsSweepDueAt, sweepSmsQueue } from "./sms-gateway.service.ts";
export type { BindingAccepts } from "./sms-gateway.service.ts";
