// The published surface of assets/kernel: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { clearBlock, hasBlock, immobility, setBlock } from "./blocks.ts";
export { isWithin, moveContents } from "./containment.ts";
export { IDENTIFIER_SCHEMES, IdentifierFormatError, gs1CheckDigit, normaliseIdentifier, parseScan } from "./gs1.ts";
export type { IdentifierRef, NormalisedIdentifier } from "./gs1.ts";
export { AVAILABILITIES, CONDITIONS, Item, LIFECYCLES, OWNERSHIPS, QUALITY_STATUSES, TRACKINGS, toItemDto } from "./item.schemas.ts";
export type { ItemDto, ItemRow } from "./item.schemas.ts";
export { changeItem, findItem, insertItem, loadItem, moveLifecycle, recordItemHistory, requireItem } from "./items.ts";
export { assertLifecycleMove } from "./lifecycle.ts";
export type { Lifecycle } from "./lifecycle.ts";
export { Holder, MOVEMENT_KINDS, Movement } from "./movement.schemas.ts";
export type { MovementKind } from "./movement.schemas.ts";
export { recordMovement, toMovementDto } from "./movements.ts";
export type { MovementDto, MovementRow } from "./movements.ts";
