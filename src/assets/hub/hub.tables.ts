// The logistics hub's shared table: one history of the companion records (dock
// appointments, quality holds, replenishment rules, continuity runs). Each section's
// own tables are in its folder (tasks/, dock/, holds/, replenishment/, continuity/).
// Items are never written here: holds block them through the kernel (item_blocks),
// tasks name them in their lines.
import { text } from "drizzle-orm/sqlite-core";
import { eventLogTable } from "../../platform/db/history.ts";

/** The history of the companion records (appointments, holds, rules, continuity runs): who, when, why. */
export const hubRecordEvents = eventLogTable(
  "hub_record_events",
  { recordId: text("record_id").notNull() },
  {
    index: "hub_record_events_record_idx",
    columns: { recordType: text("record_type", { enum: ["appointment", "hold", "rule", "continuity"] }).notNull() },
  },
);
