// The one place this module reaches the SMS gateway (src/planning/sms-gateway):
// verification codes and SMS reminders are enqueued there, cancelled there, and
// their job state read from there; every change of an SMS binding is recorded
// there (setSmsBinding), so the gateway can refuse work of a changed binding.
// The gateway owns the encrypted number and the message inside its own queue;
// this module keeps only the job id.
export { enqueueSms, cancelSms, setSmsBinding, smsJobState, type BindingAccepts } from "../sms-gateway/index.ts";
