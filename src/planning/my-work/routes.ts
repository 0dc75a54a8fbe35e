import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listMyWork } from "./routes/list-my-work.ts";

export const routes: AnyRoute[] = [listMyWork];
