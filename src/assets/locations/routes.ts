// Locations (spec order): list, create, read, update.
import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listLocations } from "./routes/list-locations.ts";
import { createLocation } from "./routes/create-location.ts";
import { getLocation } from "./routes/get-location.ts";
import { updateLocation } from "./routes/update-location.ts";

export const routes: AnyRoute[] = [listLocations, createLocation, getLocation, updateLocation];
