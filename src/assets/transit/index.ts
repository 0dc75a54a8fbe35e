// The published surface of assets/transit: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { acceptShipmentLoss, assertNewDestination, getShipment, handOffShipment, lostInException, requireShipmentInException, rerouteShipment } from "./shipments.service.ts";
export { ListShipmentsQuery } from "./transit.schemas.ts";
