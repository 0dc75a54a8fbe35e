import { defineRoute } from "../../../platform/http/define-route.ts";
import { LocationHeader } from "../../../platform/http/common-schemas.ts";
import { Item } from "../../kernel/index.ts";
import { CreateAsset } from "../items.schemas.ts";
import { createAsset as create } from "../items.service.ts";

export const createAsset = defineRoute({
  family: "assets",
  method: "post",
  path: "/assets",
  operationId: "createAsset",
  summary: "Register an asset (one item; a consumable is one item with a quantity)",
  description:
    "Creates the item `planned` with a derived availability and records a `registered` movement (event `asset.created`). " +
    "Referenced ids that do not exist or are archived are 400 at their body path. " +
    "Beyond the spec: `ownerPartyId` is refused for operator-owned items; an agreement's terms must match the ownership; " +
    "`quantity` is required (1 or more) for quantity tracking and is 1 for serialised items; `categoryId` defaults to the model's; " +
    "`qualityStatus` (default `released`) may be given; `acquiredOn` may not be in the future.",
  tags: ["Assets"],
  auth: "session",
  capability: "ams_operate",
  body: CreateAsset,
  file: import.meta.path,
  responses: { 201: { description: "The registered item", schema: Item, headers: LocationHeader } },
  handler: async (ctx, { body, query }) => {
    const item = await create(ctx, body);
    return { status: 201, body: item, headers: { Location: `/api/assets/items/${item.id}?partnerId=${query.partnerId}` } };
  },
});
