CREATE TABLE `pending_batches` (
	`id` text PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL,
	`holder` text NOT NULL,
	`lease_until` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `outbox` ADD `pending_import_id` text;--> statement-breakpoint
CREATE INDEX `outbox_pending_import_idx` ON `outbox` (`pending_import_id`) WHERE pending_import_id IS NOT NULL;