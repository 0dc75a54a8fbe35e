// Every minute: runs the queued background exports of POST /interoperability/jobs
// (EPCIS windows and canonical snapshots), acting as `system`, and stores each
// result encrypted in the content store (src/assets/interop/jobs.service.ts).
import { interopJobsDueAt, runQueuedInteropJobs } from "../assets/interop/index.ts";
import type { PartnerJob } from "./job.ts";

export const interopExportsJob: PartnerJob = {
  name: "interop-exports",
  schedule: "* * * * *",
  perPartner: true,
  // A snapshot of a large partner can take minutes; the runner renews the lease meanwhile.
  leaseSeconds: 900,
  due: interopJobsDueAt,
  async run(ctx) {
    const { processed, failed } = await runQueuedInteropJobs(ctx);
    return { processed, detail: `exports run ${processed}, failed ${failed}` };
  },
};
