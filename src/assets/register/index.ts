// The published surface of assets/register: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { RegisterListQuery } from "./register.schemas.ts";
