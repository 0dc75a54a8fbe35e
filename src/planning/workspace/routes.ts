import type { AnyRoute } from "../../platform/http/define-route.ts";
import { getProject } from "./routes/get-project.ts";

export const routes: AnyRoute[] = [getProject];
