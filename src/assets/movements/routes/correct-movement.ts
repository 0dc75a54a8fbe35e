import { defineRoute } from "../../../platform/http/define-route.ts";
import { IdParams, LocationHeader } from "../../../platform/http/common-schemas.ts";
import { CorrectMovement } from "../movements.schemas.ts";
import { Movement } from "../../kernel/index.ts";
import { correctMovement as correct } from "../movements.service.ts";

export const correctMovement = defineRoute({
  family: "assets",
  method: "post",
  path: "/movements/{id}/correct",
  operationId: "correctMovement",
  summary: "Append a correction of a movement",
  description:
    "Never edits the original: appends a movement of kind `corrected` whose `corrects` is the original's id, copying the " +
    "original's facts except the corrected ones (`data.original` names the first record of the correction chain and its kind, " +
    "`data.changes` each corrected fact from → to). A movement already corrected is 409 state_conflict: correct its correction instead. A corrected locationId " +
    "also moves the item (its container contents follow, one `moved` movement each) when the original set the item's current location and the item is still " +
    "there, not packed in a container (`data.appliedToItem`); for steps that set no destination (e.g. acknowledged, extended) it " +
    "corrects only where the step was observed, and such steps never count as the item's location fact. Holder and quantity corrections are recorded, not applied to " +
    "checkouts or quantities. Unknown locationId or holder is 400, and so is an archived location that would be applied to the item.",
  tags: ["Movements"],
  auth: "session",
  capability: "ams_operate",
  params: IdParams,
  body: CorrectMovement,
  file: import.meta.path,
  responses: { 201: { description: "The correcting movement", schema: Movement, headers: LocationHeader } },
  handler: async (ctx, { params, body, query }) => {
    const m = await correct(ctx, params.id, body);
    return { status: 201, body: m, headers: { Location: `/api/assets/movements/${m.id}?partnerId=${query.partnerId}` } };
  },
});
