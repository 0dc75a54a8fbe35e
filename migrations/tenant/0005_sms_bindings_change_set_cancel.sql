CREATE TABLE `sms_gateway_bindings` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`recipient_user_id` text NOT NULL,
	`identity_version` integer NOT NULL,
	`cancellation_revision` integer NOT NULL,
	`accepts` text NOT NULL,
	`reason` text,
	`version` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `planning_change_sets` ADD `cancelled_by` text;--> statement-breakpoint
ALTER TABLE `planning_change_sets` ADD `cancelled_at` text;--> statement-breakpoint
ALTER TABLE `planning_change_sets` ADD `cancel_reason` text;--> statement-breakpoint
ALTER TABLE `planning_imports` ADD `records_digest` text;--> statement-breakpoint
ALTER TABLE `sms_gateway_jobs` ADD `binding_id` text;--> statement-breakpoint
ALTER TABLE `sms_gateway_jobs` ADD `identity_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `sms_gateway_jobs_binding_idx` ON `sms_gateway_jobs` (`binding_id`,`state`);