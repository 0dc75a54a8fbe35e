import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listWorkflowCases } from "./routes/list-workflow-cases.ts";
import { getWorkflowCase } from "./routes/get-workflow-case.ts";
import { createWorkflowCase } from "./routes/create-workflow-case.ts";
import { decideWorkflowCase } from "./routes/decide-workflow-case.ts";

/** In the spec's order. */
export const routes: AnyRoute[] = [listWorkflowCases, getWorkflowCase, createWorkflowCase, decideWorkflowCase];
