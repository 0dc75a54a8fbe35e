// The imports module's published surface (beyond its routes): housekeeping of commits that died part-way.
export { abandonedImportsDueAt, recoverAbandonedImports } from "./imports.service.ts";
