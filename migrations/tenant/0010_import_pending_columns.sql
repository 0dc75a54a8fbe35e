ALTER TABLE `locations` ADD `pending_import_id` text;--> statement-breakpoint
CREATE INDEX `locations_pending_idx` ON `locations` (`pending_import_id`) WHERE pending_import_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `parties` ADD `pending_import_id` text;--> statement-breakpoint
CREATE INDEX `parties_pending_idx` ON `parties` (`pending_import_id`) WHERE pending_import_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `catalog_categories` ADD `pending_import_id` text;--> statement-breakpoint
CREATE INDEX `catalog_categories_pending_idx` ON `catalog_categories` (`pending_import_id`) WHERE pending_import_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `catalog_models` ADD `pending_import_id` text;--> statement-breakpoint
CREATE INDEX `catalog_models_pending_idx` ON `catalog_models` (`pending_import_id`) WHERE pending_import_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `item_history` ADD `pending_import_id` text;--> statement-breakpoint
CREATE INDEX `item_history_pending_idx` ON `item_history` (`pending_import_id`) WHERE pending_import_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `items` ADD `pending_import_id` text;--> statement-breakpoint
CREATE INDEX `items_pending_idx` ON `items` (`pending_import_id`) WHERE pending_import_id IS NOT NULL;--> statement-breakpoint
ALTER TABLE `movements` ADD `pending_import_id` text;--> statement-breakpoint
CREATE INDEX `movements_pending_idx` ON `movements` (`pending_import_id`) WHERE pending_import_id IS NOT NULL;