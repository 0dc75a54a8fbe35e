import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listWorkOrders } from "./routes/list-work-orders.ts";
import { createWorkOrder } from "./routes/create-work-order.ts";
import { getWorkOrder } from "./routes/get-work-order.ts";
import { startWorkOrder } from "./routes/start-work-order.ts";
import { pauseWorkOrder } from "./routes/pause-work-order.ts";
import { reassignWorkOrder } from "./routes/reassign-work-order.ts";
import { completeWorkOrder } from "./routes/complete-work-order.ts";
import { cancelWorkOrder } from "./routes/cancel-work-order.ts";

export const routes: AnyRoute[] = [
  listWorkOrders,
  createWorkOrder,
  getWorkOrder,
  startWorkOrder,
  pauseWorkOrder,
  reassignWorkOrder,
  completeWorkOrder,
  cancelWorkOrder,
];
