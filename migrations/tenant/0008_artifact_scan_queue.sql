ALTER TABLE `planning_artifacts` ADD `scanned_at` text;--> statement-breakpoint
CREATE INDEX `planning_artifacts_scan_queue_idx` ON `planning_artifacts` (`scan_state`,`scanned_at`,`created_at`,`id`);