-- Contract §9, issue 18 item 6. Lifecycle in_maintenance is reached by starting a work
-- order: an active item whose work order was started and is still unfinished
-- (in_progress or paused) is in maintenance. Availability is then re-derived as
-- kernel/lifecycle.ts deriveAvailability does: `unavailable` for the lifecycles out of
-- use (planned, retired, disposed, consumed), in_maintenance for items in maintenance.
-- Each changed item gets a new version and updatedAt, as changeItem gives it.
UPDATE items
SET lifecycle = 'in_maintenance',
    availability = 'in_maintenance',
    version = version + 1,
    updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE lifecycle = 'active'
  AND EXISTS (
    SELECT 1 FROM work_orders w
    WHERE w.item_id = items.id AND w.status IN ('in_progress', 'paused')
  );
--> statement-breakpoint
UPDATE items
SET availability = 'unavailable',
    version = version + 1,
    updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
WHERE lifecycle IN ('planned', 'retired', 'disposed', 'consumed')
  AND availability <> 'unavailable';
