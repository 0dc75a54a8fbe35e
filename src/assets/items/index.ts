// The published surface of assets/items: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { QUANTITY_MAX, attributeIssues } from "./items.schemas.ts";
export { moveItem, registerAsset } from "./items.service.ts";
