import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listShipments } from "./routes/list-shipments.ts";
import { createShipment } from "./routes/create-shipment.ts";
import { getShipment } from "./routes/get-shipment.ts";
import { listShipmentContents } from "./routes/list-shipment-contents.ts";
import { listShipmentContainers } from "./routes/list-shipment-containers.ts";
import { listShipmentDiscrepancies } from "./routes/list-shipment-discrepancies.ts";
import { listShipmentEvents } from "./routes/list-shipment-events.ts";
import { createContainer } from "./routes/create-container.ts";
import { dispatchShipment } from "./routes/dispatch-shipment.ts";
import { handOffShipment } from "./routes/hand-off-shipment.ts";
import { receiveShipment } from "./routes/receive-shipment.ts";
import { reportShipmentException } from "./routes/report-shipment-exception.ts";
import { returnShipmentToSender } from "./routes/return-shipment-to-sender.ts";
import { getContainer } from "./routes/get-container.ts";
import { packContainer } from "./routes/pack-container.ts";
import { repackContainer } from "./routes/repack-container.ts";
import { unpackContainer } from "./routes/unpack-container.ts";

// Spec order: GET and POST /shipments; POST /shipments/:id/containers, /dispatch, /handoff, /receive, /exceptions,
// /return-to-sender; POST /containers/:id/pack, /repack, /unpack. GET /shipments/{id}, its paged /contents,
// /containers, /discrepancies and /events, and GET /containers/{id} are beyond the spec.
export const routes: AnyRoute[] = [
  listShipments,
  createShipment,
  getShipment,
  listShipmentContents,
  listShipmentContainers,
  listShipmentDiscrepancies,
  listShipmentEvents,
  createContainer,
  dispatchShipment,
  handOffShipment,
  receiveShipment,
  reportShipmentException,
  returnShipmentToSender,
  getContainer,
  packContainer,
  repackContainer,
  unpackContainer,
];
