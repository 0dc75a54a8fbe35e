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
CREATE INDEX `saved_views_user_surface_page_idx` ON `saved_views` (`user_id`,`surface`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `locations` (
	`id` text PRIMARY KEY NOT NULL,
	`parent_id` text,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`code` text,
	`status` text DEFAULT 'active' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`parent_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `locations_code_uq` ON `locations` (`code`);--> statement-breakpoint
CREATE INDEX `locations_parent_idx` ON `locations` (`parent_id`);--> statement-breakpoint
CREATE INDEX `locations_page_idx` ON `locations` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `locations_status_page_idx` ON `locations` (`status`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `locations_kind_page_idx` ON `locations` (`kind`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `parties` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`external_ref` text,
	`status` text DEFAULT 'active' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `parties_page_idx` ON `parties` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `parties_status_page_idx` ON `parties` (`status`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `parties_kind_page_idx` ON `parties` (`kind`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `agreements` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`party_id` text NOT NULL,
	`starts_on` text NOT NULL,
	`ends_on` text,
	`reference` text,
	`terms` text NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`party_id`) REFERENCES `parties`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `agreements_party_idx` ON `agreements` (`party_id`);--> statement-breakpoint
CREATE INDEX `agreements_page_idx` ON `agreements` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `agreements_status_page_idx` ON `agreements` (`status`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `agreements_kind_page_idx` ON `agreements` (`kind`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `agreements_ends_idx` ON `agreements` (`ends_on`);--> statement-breakpoint
CREATE INDEX `agreements_reference_ci_idx` ON `agreements` (lower("reference"));--> statement-breakpoint
CREATE TABLE `catalog_categories` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`code` text,
	`status` text DEFAULT 'active' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `catalog_categories_code_uq` ON `catalog_categories` (`code`);--> statement-breakpoint
CREATE INDEX `catalog_categories_page_idx` ON `catalog_categories` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `catalog_categories_status_page_idx` ON `catalog_categories` (`status`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `catalog_models` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`category_id` text NOT NULL,
	`manufacturer` text,
	`model_number` text,
	`status` text DEFAULT 'active' NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `catalog_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `catalog_models_category_idx` ON `catalog_models` (`category_id`);--> statement-breakpoint
CREATE INDEX `catalog_models_page_idx` ON `catalog_models` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `catalog_models_status_page_idx` ON `catalog_models` (`status`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `item_blocks` (
	`item_id` text NOT NULL,
	`kind` text NOT NULL,
	`source_id` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`item_id`, `kind`, `source_id`),
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `item_blocks_source_idx` ON `item_blocks` (`source_id`);--> statement-breakpoint
CREATE TABLE `item_history` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`recorded_at` text NOT NULL,
	`reason` text,
	`data` text NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `item_history_item_idx` ON `item_history` (`item_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE TABLE `items` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`ownership` text NOT NULL,
	`owner_party_id` text,
	`agreement_id` text,
	`model_id` text,
	`category_id` text,
	`tracking` text NOT NULL,
	`quantity` integer DEFAULT 1 NOT NULL,
	`serial_number` text,
	`condition` text NOT NULL,
	`quality_status` text NOT NULL,
	`acquisition_cost_amount` text,
	`acquisition_cost_currency` text,
	`acquired_on` text,
	`attributes` text NOT NULL,
	`lifecycle` text NOT NULL,
	`availability` text NOT NULL,
	`location_id` text NOT NULL,
	`container_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`owner_party_id`) REFERENCES `parties`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agreement_id`) REFERENCES `agreements`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`model_id`) REFERENCES `catalog_models`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_id`) REFERENCES `catalog_categories`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`container_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `items_own_page_idx` ON `items` (`ownership`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_ownership_idx` ON `items` (`ownership`);--> statement-breakpoint
CREATE INDEX `items_own_lifecycle_idx` ON `items` (`ownership`,`lifecycle`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_own_availability_idx` ON `items` (`ownership`,`availability`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_own_condition_idx` ON `items` (`ownership`,`condition`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_own_quality_idx` ON `items` (`ownership`,`quality_status`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_own_category_idx` ON `items` (`ownership`,`category_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_own_location_idx` ON `items` (`ownership`,`location_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `items_location_idx` ON `items` (`location_id`);--> statement-breakpoint
CREATE INDEX `items_container_idx` ON `items` (`container_id`);--> statement-breakpoint
CREATE INDEX `items_model_idx` ON `items` (`model_id`);--> statement-breakpoint
CREATE INDEX `items_lifecycle_idx` ON `items` (`lifecycle`);--> statement-breakpoint
CREATE INDEX `items_availability_idx` ON `items` (`availability`);--> statement-breakpoint
CREATE TABLE `movements` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`kind` text NOT NULL,
	`event_time` text NOT NULL,
	`recorded_at` text NOT NULL,
	`actor_id` text NOT NULL,
	`read_point_id` text,
	`biz_location_id` text,
	`from_location_id` text,
	`to_location_id` text,
	`from_container_id` text,
	`to_container_id` text,
	`holder_kind` text,
	`holder_id` text,
	`quantity` integer,
	`checkout_id` text,
	`corrects_id` text,
	`reason` text,
	`data` text NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`corrects_id`) REFERENCES `movements`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `movements_page_idx` ON `movements` (`recorded_at`,`id`);--> statement-breakpoint
CREATE INDEX `movements_item_page_idx` ON `movements` (`item_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE INDEX `movements_kind_page_idx` ON `movements` (`kind`,`recorded_at`,`id`);--> statement-breakpoint
CREATE INDEX `movements_event_time_idx` ON `movements` (`event_time`);--> statement-breakpoint
CREATE INDEX `movements_corrects_idx` ON `movements` (`corrects_id`);--> statement-breakpoint
CREATE TABLE `identifiers` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`scheme` text NOT NULL,
	`value` text NOT NULL,
	`digital_link` text,
	`epc_uri` text,
	`state` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `identifiers_scheme_value_uq` ON `identifiers` (`scheme`,`value`);--> statement-breakpoint
CREATE INDEX `identifiers_item_idx` ON `identifiers` (`item_id`);--> statement-breakpoint
CREATE INDEX `identifiers_epc_idx` ON `identifiers` (`epc_uri`);--> statement-breakpoint
CREATE TABLE `checkout_events` (
	`id` text PRIMARY KEY NOT NULL,
	`checkout_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`recorded_at` text NOT NULL,
	`reason` text,
	`data` text NOT NULL,
	FOREIGN KEY (`checkout_id`) REFERENCES `checkouts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `checkout_events_checkout_idx` ON `checkout_events` (`checkout_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE TABLE `checkouts` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`state` text NOT NULL,
	`holder_kind` text NOT NULL,
	`holder_id` text NOT NULL,
	`starts_at` text NOT NULL,
	`ends_at` text,
	`due_at` text,
	`checked_out_at` text,
	`returned_at` text,
	`acknowledged_at` text,
	`acknowledged_by` text,
	`note` text,
	`return_condition` text,
	`return_location_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`return_location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `checkouts_page_idx` ON `checkouts` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `checkouts_state_page_idx` ON `checkouts` (`state`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `checkouts_item_state_idx` ON `checkouts` (`item_id`,`state`);--> statement-breakpoint
CREATE INDEX `checkouts_item_page_idx` ON `checkouts` (`item_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `checkouts_holder_idx` ON `checkouts` (`holder_kind`,`holder_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `checkouts_holder_id_idx` ON `checkouts` (`holder_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `checkouts_due_idx` ON `checkouts` (`state`,`due_at`);