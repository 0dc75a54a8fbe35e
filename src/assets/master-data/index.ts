// Master data and settings (spec order): locations, parties, agreements, catalogue, settings records.
import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listLocations } from "./routes/list-locations.ts";
import { createLocation } from "./routes/create-location.ts";
import { getLocation } from "./routes/get-location.ts";
import { updateLocation } from "./routes/update-location.ts";
import { listParties } from "./routes/list-parties.ts";
import { createParty } from "./routes/create-party.ts";
import { getParty } from "./routes/get-party.ts";
import { updateParty } from "./routes/update-party.ts";
import { listAgreements } from "./routes/list-agreements.ts";
import { createAgreement } from "./routes/create-agreement.ts";
import { getAgreement } from "./routes/get-agreement.ts";
import { updateAgreement } from "./routes/update-agreement.ts";
import { getCatalog } from "./routes/get-catalog.ts";
import { createCatalogCategory } from "./routes/create-catalog-category.ts";
import { getCatalogCategory } from "./routes/get-catalog-category.ts";
import { updateCatalogCategory } from "./routes/update-catalog-category.ts";
import { createCatalogModel } from "./routes/create-catalog-model.ts";
import { getCatalogModel } from "./routes/get-catalog-model.ts";
import { updateCatalogModel } from "./routes/update-catalog-model.ts";
import { listSettingsRecords } from "./routes/list-settings-records.ts";

export const routes: AnyRoute[] = [
  listLocations,
  createLocation,
  getLocation,
  updateLocation,
  listParties,
  createParty,
  getParty,
  updateParty,
  listAgreements,
  createAgreement,
  getAgreement,
  updateAgreement,
  getCatalog,
  createCatalogCategory,
  getCatalogCategory,
  updateCatalogCategory,
  createCatalogModel,
  getCatalogModel,
  updateCatalogModel,
  listSettingsRecords,
];
