import type { AnyRoute } from "../../platform/http/define-route.ts";
import { getInteroperabilitySnapshot } from "./routes/get-interoperability-snapshot.ts";
import { exportEpcis } from "./routes/export-epcis.ts";
import { createInteropJob } from "./routes/create-interop-job.ts";
import { getInteropJob } from "./routes/get-interop-job.ts";
import { downloadInteropJobResult } from "./routes/download-interop-job-result.ts";
import { validateEpcis } from "./routes/validate-epcis.ts";

export const routes: AnyRoute[] = [getInteroperabilitySnapshot, exportEpcis, createInteropJob, getInteropJob, downloadInteropJobResult, validateEpcis];
