import type { AnyRoute } from "../../platform/http/define-route.ts";
import { issueIdentifier } from "./routes/issue-identifier.ts";
import { transitionIdentifier } from "./routes/transition-identifier.ts";
import { resolveScan } from "./routes/resolve-scan.ts";
import { getIdentifier } from "./routes/get-identifier.ts";

export const routes: AnyRoute[] = [issueIdentifier, getIdentifier, transitionIdentifier, resolveScan];
