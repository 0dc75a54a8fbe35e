// The catalogue (spec order): the whole catalogue, then categories and models.
import type { AnyRoute } from "../../platform/http/define-route.ts";
import { getCatalog } from "./routes/get-catalog.ts";
import { createCatalogCategory } from "./routes/create-catalog-category.ts";
import { getCatalogCategory } from "./routes/get-catalog-category.ts";
import { updateCatalogCategory } from "./routes/update-catalog-category.ts";
import { createCatalogModel } from "./routes/create-catalog-model.ts";
import { getCatalogModel } from "./routes/get-catalog-model.ts";
import { updateCatalogModel } from "./routes/update-catalog-model.ts";

export const routes: AnyRoute[] = [
  getCatalog,
  createCatalogCategory,
  getCatalogCategory,
  updateCatalogCategory,
  createCatalogModel,
  getCatalogModel,
  updateCatalogModel,
];
