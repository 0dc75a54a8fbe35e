// Every index on the tables a registration writes (items, movements, item_history,
// outbox, idempotency_keys) costs each POST /assets a page write per commit (issue 22:
// one item insert maintained 14 indexes on items and 6 on movements). Each index kept
// there is named here with the query it serves, in the shape the service runs it,
// and that query's plan must use it; an index added to these tables without such a
// query fails the first test.
import { afterAll, describe, expect, test } from "bun:test";
import { partnerKit } from "../kit.ts";

const api = await partnerKit({ partnerId: "idx-co", users: { ops: "admin" } });
afterAll(() => api.close());

/** index → [where it is used, a query of that shape]. */
const JUSTIFIED: Record<string, [string, string]> = {
  // items: the /owned and /loaned pages and counts, one index per filter (register.test.ts checks each filter)
  items_own_page_idx: ["/owned page, no filter", "SELECT id FROM items WHERE ownership = 'owned' ORDER BY updated_at DESC, id DESC LIMIT 51"],
  items_ownership_idx: ["/owned exact total, no filter (narrowest covering index)", "SELECT count(*) FROM items WHERE ownership = 'owned'"],
  items_own_lifecycle_idx: ["/owned?lifecycle=", "SELECT id FROM items WHERE ownership = 'owned' AND lifecycle = 'active' ORDER BY updated_at DESC, id DESC LIMIT 51"],
  items_own_availability_idx: ["/owned?availability=", "SELECT id FROM items WHERE ownership = 'owned' AND availability = 'available' ORDER BY updated_at DESC, id DESC LIMIT 51"],
  items_own_condition_idx: ["/owned?condition=", "SELECT id FROM items WHERE ownership = 'owned' AND condition = 'new' ORDER BY updated_at DESC, id DESC LIMIT 51"],
  items_own_quality_idx: ["/owned?qualityStatus=", "SELECT id FROM items WHERE ownership = 'owned' AND quality_status = 'on_hold' ORDER BY updated_at DESC, id DESC LIMIT 51"],
  items_own_category_idx: ["/owned?categoryId=", "SELECT id FROM items WHERE ownership = 'owned' AND category_id = 'c' ORDER BY updated_at DESC, id DESC LIMIT 51"],
  items_own_location_idx: ["/owned?locationId=", "SELECT id FROM items WHERE ownership = 'owned' AND location_id = 'l' ORDER BY updated_at DESC, id DESC LIMIT 51"],
  items_lifecycle_idx: ["GET /summary byLifecycle", "SELECT lifecycle, count(*) FROM items GROUP BY lifecycle"],
  items_availability_idx: ["GET /summary byAvailability", "SELECT availability, count(*) FROM items GROUP BY availability"],
  items_location_idx: ["archiving a location: items still there (locations.service)", "SELECT id FROM items WHERE location_id = 'l' AND lifecycle NOT IN ('disposed', 'consumed') LIMIT 1"],
  items_container_idx: ["a container's contents (items.service, containers.service)", "SELECT id FROM items WHERE container_id = 'c' ORDER BY id LIMIT 100"],
  items_model_idx: ["replenishment stock of a model; TCO by model (costs.service)", "SELECT count(*) FROM items WHERE model_id = 'm' AND location_id = 'l'"],
  // movements
  movements_page_idx: ["GET /movements, no filter", "SELECT id FROM movements ORDER BY recorded_at DESC, id DESC LIMIT 51"],
  movements_item_page_idx: ["an item's movements (GET /items/{id}/movements)", "SELECT id FROM movements WHERE item_id = 'i' ORDER BY recorded_at DESC, id DESC LIMIT 51"],
  movements_kind_page_idx: ["GET /movements?kind=", "SELECT id FROM movements WHERE kind = 'moved' ORDER BY recorded_at DESC, id DESC LIMIT 51"],
  movements_event_time_idx: ["EPCIS export window (from/to on event time, in event-time order)", "SELECT id FROM movements WHERE event_time >= '2026-01-01' AND event_time < '2026-02-01' ORDER BY event_time, recorded_at, id LIMIT 1000"],
  movements_corrects_idx: ["correctedBy of a movement (movements.test.ts)", "SELECT id FROM movements WHERE corrects_id = 'm'"],
  // item history, outbox, idempotency keys
  item_history_item_idx: ["an item's history, newest first", "SELECT id FROM item_history WHERE item_id = 'i' ORDER BY recorded_at DESC, id DESC LIMIT 51"],
  idempotency_keys_created_idx: ["the housekeeping job's due probe (oldest key), then the purge", "SELECT created_at FROM idempotency_keys ORDER BY created_at LIMIT 1"],
  // outbox: none (readers go by rowid or id; outbox_pending_idx served no query and was dropped)
  // The rows of CSV imports (src/platform/db/pending.ts), partial: an ordinary registration adds nothing to them.
  items_pending_idx: ["pending side of the /owned and /loaned totals while an import is applied", "SELECT count(*) FROM items INDEXED BY items_pending_idx WHERE pending_import_id IN (SELECT id FROM pending_batches) AND ownership = 'owned'"],
  movements_pending_idx: ["pending side of the GET /movements total; a failed import's clean-up", "SELECT rowid FROM movements WHERE pending_import_id = 'b' LIMIT 500"],
  item_history_pending_idx: ["a failed import's clean-up", "SELECT rowid FROM item_history WHERE pending_import_id = 'b' LIMIT 500"],
  outbox_pending_import_idx: ["where the outbox's readers stop while an import is applied (visibleOutboxEnd)", "SELECT min(rowid) FROM outbox WHERE pending_import_id IN (SELECT id FROM pending_batches)"],
};

const WRITE_PATH_TABLES = ["items", "movements", "item_history", "outbox", "idempotency_keys"];

describe("indexes on the tables a registration writes", () => {
  test("each is justified by a query the services run", async () => {
    const list = (await api.rawRead(
      `SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${WRITE_PATH_TABLES.map((t) => `'${t}'`).join(", ")}) ORDER BY name`,
    )).map((r) => String(r.name));
    expect(list.filter((n) => !(n in JUSTIFIED))).toEqual([]);
    expect(Object.keys(JUSTIFIED).filter((n) => !list.includes(n))).toEqual([]);
  });

  for (const [index, [use, query]] of Object.entries(JUSTIFIED)) {
    test(`${index}: ${use}`, async () => {
      const plan = (await api.rawRead(`EXPLAIN QUERY PLAN ${query}`)).map((r) => String(r.detail)).join("\n");
      expect(plan).toContain(index);
    });
  }
});
