import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listMovements } from "./routes/list-movements.ts";
import { getMovement } from "./routes/get-movement.ts";
import { correctMovement } from "./routes/correct-movement.ts";

export const routes: AnyRoute[] = [listMovements, getMovement, correctMovement];
