import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listPolicies } from "./routes/list-policies.ts";
import { createPolicy } from "./routes/create-policy.ts";
import { getPolicy } from "./routes/get-policy.ts";
import { revisePolicy } from "./routes/revise-policy.ts";
import { submitPolicy } from "./routes/submit-policy.ts";
import { decidePolicy } from "./routes/decide-policy.ts";

export const routes: AnyRoute[] = [listPolicies, createPolicy, getPolicy, revisePolicy, submitPolicy, decidePolicy];
