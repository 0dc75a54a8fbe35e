// The published surface of assets/movements: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { ListMovementsQuery } from "./movements.schemas.ts";
