CREATE TABLE `capability_grants` (
	`id` text PRIMARY KEY NOT NULL,
	`capability` text NOT NULL,
	`user_id` text NOT NULL,
	`expires_at` text,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `capability_grants_uq` ON `capability_grants` (`capability`,`user_id`);--> statement-breakpoint
CREATE INDEX `capability_grants_user_idx` ON `capability_grants` (`user_id`);--> statement-breakpoint
CREATE TABLE `capability_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`role_defaults` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`updated_at` text NOT NULL,
	`updated_by` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `memberships` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`display_name` text NOT NULL,
	`email` text,
	`status` text DEFAULT 'active' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `memberships_user_uq` ON `memberships` (`user_id`);--> statement-breakpoint
CREATE INDEX `memberships_status_idx` ON `memberships` (`status`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`user_id` text NOT NULL,
	`method` text NOT NULL,
	`route` text NOT NULL,
	`key` text NOT NULL,
	`fingerprint` text NOT NULL,
	`status` integer NOT NULL,
	`body` text NOT NULL,
	`headers` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `method`, `route`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `job_leases` (
	`job` text PRIMARY KEY NOT NULL,
	`holder` text NOT NULL,
	`expires_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `job_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`job` text NOT NULL,
	`status` text NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text NOT NULL,
	`detail` text,
	`processed` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `job_runs_job_idx` ON `job_runs` (`job`,`started_at`);--> statement-breakpoint
CREATE TABLE `outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`aggregate_id` text NOT NULL,
	`payload` text NOT NULL,
	`occurred_at` text NOT NULL,
	`created_at` text NOT NULL,
	`published_at` text
);
--> statement-breakpoint
CREATE INDEX `outbox_pending_idx` ON `outbox` (`published_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `drafts` (
	`user_id` text NOT NULL,
	`route` text NOT NULL,
	`workflow_key` text NOT NULL,
	`payload` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`user_id`, `route`, `workflow_key`)
);
--> statement-breakpoint
CREATE INDEX `drafts_expiry_idx` ON `drafts` (`expires_at`);--> statement-breakpoint
CREATE TABLE `saved_views` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`surface` text NOT NULL,
	`name` text NOT NULL,
	`name_key` text NOT NULL,
	`query` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saved_views_name_uq` ON `saved_views` (`user_id`,`surface`,`name_key`);--> statement-breakpoint
CREATE INDEX `saved_views_user_page_idx` ON `saved_views` (`user_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `saved_views_user_surface_page_idx` ON `saved_views` (`user_id`,`surface`,`updated_at`,`id`);