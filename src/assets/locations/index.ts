// The published surface of assets/locations: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { LOCATION_KINDS, LocationAncestor } from "./locations.schemas.ts";
export { activeLocationExists, activeLocationsNamed, createLocation, locationExists, locationPath, locationPathFrom, locationText, requireLocation, toLocationDto } from "./locations.service.ts";
export type { LocationRow } from "./locations.service.ts";
