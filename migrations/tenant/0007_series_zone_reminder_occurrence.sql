ALTER TABLE `planning_meeting_occurrences` ADD `series_zone` text;--> statement-breakpoint
ALTER TABLE `planning_reminder_deliveries` ADD `occurrence_at` text;