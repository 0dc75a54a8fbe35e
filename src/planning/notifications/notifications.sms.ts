// The one place this module reaches the SMS gateway (src/planning/sms-gateway):
// verification codes and SMS reminders are enqueued there, cancelled there, and
// their job state read from there. The gateway owns the encrypted number and the
// message inside its own queue; this module keeps only the job id.
export { enqueueSms, cancelSms, smsJobState } from "../sms-gateway/sms-gateway.service.ts";
