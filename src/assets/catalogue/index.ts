// The published surface of assets/catalogue: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { activeCategoriesNamed, activeModelsNamed, createCategory, createModel, findModel, requireCategory, requireModel } from "./catalogue.service.ts";
