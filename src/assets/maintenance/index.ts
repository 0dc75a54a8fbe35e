// The published surface of assets/maintenance: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { ListWorkOrdersQuery } from "./maintenance.schemas.ts";
export { completedWorkOrderCosts, createWorkOrder, getWorkOrder, listWorkOrders } from "./maintenance.service.ts";
export { UNFINISHED, WORK_ORDER_KINDS } from "./maintenance.states.ts";
