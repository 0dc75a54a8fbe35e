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
CREATE INDEX `checkouts_due_idx` ON `checkouts` (`state`,`due_at`);--> statement-breakpoint
CREATE TABLE `shipment_containers` (
	`id` text PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`parent_container_id` text,
	`kind` text NOT NULL,
	`label` text,
	`code` text,
	`state` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`parent_container_id`) REFERENCES `shipment_containers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shipment_containers_shipment_idx` ON `shipment_containers` (`shipment_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `shipment_containers_parent_idx` ON `shipment_containers` (`parent_container_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `shipment_containers_code_uq` ON `shipment_containers` (`code`);--> statement-breakpoint
CREATE TABLE `shipment_discrepancies` (
	`id` text PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`item_id` text NOT NULL,
	`kind` text NOT NULL,
	`note` text,
	`recorded_at` text NOT NULL,
	`recorded_by` text NOT NULL,
	`resolved_at` text,
	`resolved_by` text,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shipment_discrepancies_shipment_idx` ON `shipment_discrepancies` (`shipment_id`,`item_id`);--> statement-breakpoint
CREATE TABLE `shipment_events` (
	`id` text PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`recorded_at` text NOT NULL,
	`reason` text,
	`data` text NOT NULL,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shipment_events_shipment_idx` ON `shipment_events` (`shipment_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE TABLE `shipment_items` (
	`id` text PRIMARY KEY NOT NULL,
	`shipment_id` text NOT NULL,
	`item_id` text NOT NULL,
	`container_id` text NOT NULL,
	`state` text NOT NULL,
	`packed_at` text NOT NULL,
	`packed_by` text NOT NULL,
	`received_at` text,
	`received_by` text,
	`received_location_id` text,
	`received_condition` text,
	`returned_at` text,
	FOREIGN KEY (`shipment_id`) REFERENCES `shipments`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`container_id`) REFERENCES `shipment_containers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`received_location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shipment_items_packed_uq` ON `shipment_items` (`item_id`) WHERE "shipment_items"."state" = 'packed';--> statement-breakpoint
CREATE INDEX `shipment_items_shipment_idx` ON `shipment_items` (`shipment_id`,`state`);--> statement-breakpoint
CREATE INDEX `shipment_items_container_idx` ON `shipment_items` (`container_id`,`state`);--> statement-breakpoint
CREATE INDEX `shipment_items_item_idx` ON `shipment_items` (`item_id`);--> statement-breakpoint
CREATE TABLE `shipments` (
	`id` text PRIMARY KEY NOT NULL,
	`reference` text,
	`origin_location_id` text NOT NULL,
	`destination_location_id` text NOT NULL,
	`carrier` text,
	`tracking_reference` text,
	`expected_arrival_at` text,
	`note` text,
	`status` text NOT NULL,
	`dispatched_at` text,
	`received_at` text,
	`returned_at` text,
	`last_read_point_id` text,
	`open_exception` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`origin_location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`destination_location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`last_read_point_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `shipments_page_idx` ON `shipments` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `shipments_status_page_idx` ON `shipments` (`status`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `shipments_reference_ci_idx` ON `shipments` (lower("reference"));--> statement-breakpoint
CREATE INDEX `shipments_carrier_ci_idx` ON `shipments` (lower("carrier"));--> statement-breakpoint
CREATE INDEX `shipments_tracking_ci_idx` ON `shipments` (lower("tracking_reference"));--> statement-breakpoint
CREATE INDEX `shipments_origin_idx` ON `shipments` (`origin_location_id`);--> statement-breakpoint
CREATE INDEX `shipments_destination_idx` ON `shipments` (`destination_location_id`);--> statement-breakpoint
CREATE TABLE `audit_counts` (
	`id` text PRIMARY KEY NOT NULL,
	`audit_id` text NOT NULL,
	`item_id` text NOT NULL,
	`counter_id` text NOT NULL,
	`location_id` text NOT NULL,
	`condition` text,
	`quantity` integer,
	`raw` text,
	`counted_at` text NOT NULL,
	FOREIGN KEY (`audit_id`) REFERENCES `audits`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_counts_counter_uq` ON `audit_counts` (`audit_id`,`item_id`,`counter_id`);--> statement-breakpoint
CREATE TABLE `audit_events` (
	`id` text PRIMARY KEY NOT NULL,
	`audit_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`recorded_at` text NOT NULL,
	`reason` text,
	`data` text NOT NULL,
	FOREIGN KEY (`audit_id`) REFERENCES `audits`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `audit_events_audit_idx` ON `audit_events` (`audit_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE TABLE `audit_expected` (
	`audit_id` text NOT NULL,
	`item_id` text NOT NULL,
	`location_id` text NOT NULL,
	`condition` text NOT NULL,
	`quantity` integer NOT NULL,
	PRIMARY KEY(`audit_id`, `item_id`),
	FOREIGN KEY (`audit_id`) REFERENCES `audits`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `audit_locations` (
	`audit_id` text NOT NULL,
	`location_id` text NOT NULL,
	PRIMARY KEY(`audit_id`, `location_id`),
	FOREIGN KEY (`audit_id`) REFERENCES `audits`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `audit_locations_location_idx` ON `audit_locations` (`location_id`,`audit_id`);--> statement-breakpoint
CREATE TABLE `audit_results` (
	`id` text PRIMARY KEY NOT NULL,
	`audit_id` text NOT NULL,
	`item_id` text NOT NULL,
	`kind` text NOT NULL,
	`expected` integer NOT NULL,
	`recorded_location_id` text NOT NULL,
	`recorded_condition` text NOT NULL,
	`recorded_quantity` integer NOT NULL,
	`counted_location_id` text,
	`counted_condition` text,
	`counted_quantity` integer,
	`counts` text NOT NULL,
	`review_state` text NOT NULL,
	`review_reason` text,
	`reviewed_by` text,
	`reviewed_at` text,
	`applied_at` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`audit_id`) REFERENCES `audits`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `audit_results_item_uq` ON `audit_results` (`audit_id`,`item_id`);--> statement-breakpoint
CREATE INDEX `audit_results_page_idx` ON `audit_results` (`audit_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_results_kind_idx` ON `audit_results` (`audit_id`,`kind`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `audit_results_review_idx` ON `audit_results` (`audit_id`,`review_state`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `audit_words` (
	`word` text NOT NULL,
	`audit_id` text NOT NULL,
	PRIMARY KEY(`word`, `audit_id`),
	FOREIGN KEY (`audit_id`) REFERENCES `audits`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `audits` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`status` text NOT NULL,
	`scope_location_ids` text NOT NULL,
	`scope_category_ids` text NOT NULL,
	`due_at` text,
	`started_at` text,
	`counting_closed_at` text,
	`posted_at` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audits_page_idx` ON `audits` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `audits_status_page_idx` ON `audits` (`status`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `work_order_events` (
	`id` text PRIMARY KEY NOT NULL,
	`work_order_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`recorded_at` text NOT NULL,
	`reason` text,
	`data` text NOT NULL,
	FOREIGN KEY (`work_order_id`) REFERENCES `work_orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `work_order_events_order_idx` ON `work_order_events` (`work_order_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE TABLE `work_order_words` (
	`word` text NOT NULL,
	`work_order_id` text NOT NULL,
	PRIMARY KEY(`word`, `work_order_id`),
	FOREIGN KEY (`work_order_id`) REFERENCES `work_orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `work_orders` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`kind` text NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`status` text NOT NULL,
	`assignee_user_id` text,
	`due_at` text,
	`recurrence_every_days` integer,
	`holds_item` integer NOT NULL,
	`previous_work_order_id` text,
	`next_work_order_id` text,
	`started_at` text,
	`completed_at` text,
	`cancelled_at` text,
	`outcome` text,
	`labour` text,
	`parts` text,
	`cost_amount` text,
	`cost_currency` text,
	`next_due_on` text,
	`completion_note` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`previous_work_order_id`) REFERENCES `work_orders`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`next_work_order_id`) REFERENCES `work_orders`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `work_orders_page_idx` ON `work_orders` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `work_orders_status_page_idx` ON `work_orders` (`status`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `work_orders_item_page_idx` ON `work_orders` (`item_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `hub_continuity_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`scenario` text NOT NULL,
	`checklist` text NOT NULL,
	`status` text NOT NULL,
	`outcome` text,
	`notes` text,
	`started_at` text NOT NULL,
	`completed_at` text,
	`completed_by` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hub_continuity_page_idx` ON `hub_continuity_runs` (`started_at`,`id`);--> statement-breakpoint
CREATE INDEX `hub_continuity_status_page_idx` ON `hub_continuity_runs` (`status`,`started_at`,`id`);--> statement-breakpoint
CREATE INDEX `hub_continuity_scenario_ci_idx` ON `hub_continuity_runs` (lower("scenario"));--> statement-breakpoint
CREATE TABLE `hub_dock_appointments` (
	`id` text PRIMARY KEY NOT NULL,
	`location_id` text NOT NULL,
	`carrier` text NOT NULL,
	`kind` text NOT NULL,
	`scheduled_at` text NOT NULL,
	`shipment_id` text,
	`reference` text,
	`note` text,
	`status` text NOT NULL,
	`arrived_at` text,
	`started_at` text,
	`closed_at` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `hub_dock_page_idx` ON `hub_dock_appointments` (`scheduled_at`,`id`);--> statement-breakpoint
CREATE INDEX `hub_dock_status_page_idx` ON `hub_dock_appointments` (`status`,`scheduled_at`,`id`);--> statement-breakpoint
CREATE INDEX `hub_dock_carrier_ci_idx` ON `hub_dock_appointments` (lower("carrier"));--> statement-breakpoint
CREATE INDEX `hub_dock_reference_ci_idx` ON `hub_dock_appointments` (lower("reference"));--> statement-breakpoint
CREATE TABLE `hub_record_events` (
	`id` text PRIMARY KEY NOT NULL,
	`record_id` text NOT NULL,
	`record_type` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`recorded_at` text NOT NULL,
	`reason` text,
	`data` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hub_record_events_record_idx` ON `hub_record_events` (`record_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE TABLE `hub_task_events` (
	`id` text PRIMARY KEY NOT NULL,
	`task_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`recorded_at` text NOT NULL,
	`reason` text,
	`data` text NOT NULL,
	FOREIGN KEY (`task_id`) REFERENCES `hub_tasks`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `hub_task_events_task_idx` ON `hub_task_events` (`task_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE TABLE `hub_tasks` (
	`id` text PRIMARY KEY NOT NULL,
	`task_type` text NOT NULL,
	`title` text NOT NULL,
	`status` text NOT NULL,
	`urgent` integer NOT NULL,
	`due_at` text,
	`location_id` text,
	`target_location_id` text,
	`lines` text NOT NULL,
	`assignee_user_id` text,
	`assigned_at` text,
	`started_at` text,
	`completed_at` text,
	`cancelled_at` text,
	`replenishment_rule_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`target_location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `hub_tasks_page_idx` ON `hub_tasks` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `hub_tasks_status_page_idx` ON `hub_tasks` (`status`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `hub_tasks_type_page_idx` ON `hub_tasks` (`task_type`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `hub_tasks_title_ci_idx` ON `hub_tasks` (lower("title"));--> statement-breakpoint
CREATE INDEX `hub_tasks_counts_idx` ON `hub_tasks` (`status`,`task_type`,`urgent`);--> statement-breakpoint
CREATE INDEX `hub_tasks_urgent_due_idx` ON `hub_tasks` (`status`,`urgent`,`due_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `hub_tasks_open_rule_uq` ON `hub_tasks` (`replenishment_rule_id`) WHERE "hub_tasks"."replenishment_rule_id" IS NOT NULL AND "hub_tasks"."status" IN ('open', 'assigned', 'in_progress');--> statement-breakpoint
CREATE TABLE `hub_quality_holds` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`reason` text NOT NULL,
	`reference` text,
	`item_ids` text NOT NULL,
	`status` text NOT NULL,
	`placed_at` text NOT NULL,
	`resolution` text,
	`resolution_note` text,
	`resolved_at` text,
	`resolved_by` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `hub_holds_page_idx` ON `hub_quality_holds` (`placed_at`,`id`);--> statement-breakpoint
CREATE INDEX `hub_holds_status_page_idx` ON `hub_quality_holds` (`status`,`placed_at`,`id`);--> statement-breakpoint
CREATE INDEX `hub_holds_reason_ci_idx` ON `hub_quality_holds` (lower("reason"));--> statement-breakpoint
CREATE INDEX `hub_holds_reference_ci_idx` ON `hub_quality_holds` (lower("reference"));--> statement-breakpoint
CREATE TABLE `hub_replenishment_rules` (
	`id` text PRIMARY KEY NOT NULL,
	`location_id` text NOT NULL,
	`model_id` text NOT NULL,
	`min` integer NOT NULL,
	`max` integer NOT NULL,
	`label` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`model_id`) REFERENCES `catalog_models`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `hub_rules_location_model_uq` ON `hub_replenishment_rules` (`location_id`,`model_id`);--> statement-breakpoint
CREATE INDEX `hub_rules_page_idx` ON `hub_replenishment_rules` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `hub_rules_label_ci_idx` ON `hub_replenishment_rules` (lower("label"));--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`endpoint_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`recorded_at` text NOT NULL,
	`status_code` integer,
	`duration_ms` integer NOT NULL,
	`outcome` text NOT NULL,
	`error` text,
	`next_attempt_at` text,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_page_idx` ON `webhook_attempts` (`endpoint_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`endpoint_id` text NOT NULL,
	`event_id` text NOT NULL,
	`event_type` text NOT NULL,
	`outbox_seq` integer,
	`body` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_queue_idx` ON `webhook_deliveries` (`endpoint_id`,`status`,`outbox_seq`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_retention_idx` ON `webhook_deliveries` (`status`,`updated_at`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`enabled` integer NOT NULL,
	`secret_ciphertext` text NOT NULL,
	`disabled_reason` text,
	`disabled_at` text,
	`failing_since` text,
	`outbox_cursor` integer NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_page_idx` ON `webhook_endpoints` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_endpoints_enabled_idx` ON `webhook_endpoints` (`enabled`);--> statement-breakpoint
CREATE TABLE `alerts` (
	`id` text PRIMARY KEY NOT NULL,
	`fingerprint` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`subject_type` text NOT NULL,
	`subject_id` text NOT NULL,
	`due_at` text,
	`data` text NOT NULL,
	`acknowledged_at` text,
	`acknowledged_by` text,
	`resolved_at` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alerts_fingerprint_uq` ON `alerts` (`fingerprint`);--> statement-breakpoint
CREATE INDEX `alerts_page_idx` ON `alerts` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `alerts_kind_page_idx` ON `alerts` (`kind`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `alerts_status_page_idx` ON `alerts` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `interop_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`format` text NOT NULL,
	`state` text NOT NULL,
	`parameters` text NOT NULL,
	`started_at` text,
	`finished_at` text,
	`failure` text,
	`result_key` text,
	`result_header` text,
	`result_sha256` text,
	`result_bytes` integer,
	`result_count` integer,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `interop_jobs_state_idx` ON `interop_jobs` (`state`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `policies` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`state` text NOT NULL,
	`revision` integer NOT NULL,
	`document` text NOT NULL,
	`submitted_at` text,
	`submitted_by` text,
	`decided_at` text,
	`decided_by` text,
	`decision_reason` text,
	`superseded_at` text,
	`superseded_by_policy_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `policies_page_idx` ON `policies` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `policies_type_page_idx` ON `policies` (`type`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `policies_state_page_idx` ON `policies` (`state`,`updated_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `policies_active_type_uq` ON `policies` (`type`) WHERE state = 'active';--> statement-breakpoint
CREATE TABLE `policy_events` (
	`id` text PRIMARY KEY NOT NULL,
	`policy_id` text NOT NULL,
	`kind` text NOT NULL,
	`revision` integer NOT NULL,
	`actor_id` text NOT NULL,
	`recorded_at` text NOT NULL,
	`reason` text,
	`data` text NOT NULL,
	FOREIGN KEY (`policy_id`) REFERENCES `policies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `policy_events_policy_idx` ON `policy_events` (`policy_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE TABLE `policy_receipts` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`policy_id` text NOT NULL,
	`policy_type` text NOT NULL,
	`revision` integer NOT NULL,
	`document_sha256` text NOT NULL,
	`superseded_policy_id` text,
	`approved_by` text NOT NULL,
	`approved_at` text NOT NULL,
	`reason` text NOT NULL,
	`request_id` text NOT NULL,
	FOREIGN KEY (`policy_id`) REFERENCES `policies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `policy_receipts_policy_uq` ON `policy_receipts` (`policy_id`);--> statement-breakpoint
CREATE TABLE `policy_revisions` (
	`policy_id` text NOT NULL,
	`revision` integer NOT NULL,
	`document` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`policy_id`) REFERENCES `policies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `policy_revisions_uq` ON `policy_revisions` (`policy_id`,`revision`);--> statement-breakpoint
CREATE TABLE `inspection_results` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`case_id` text NOT NULL,
	`kind` text NOT NULL,
	`result` text NOT NULL,
	`performed_on` text NOT NULL,
	`certificate_reference` text,
	`next_due_on` text NOT NULL,
	`notes` text,
	`work_order_id` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`case_id`) REFERENCES `workflow_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `inspection_results_item_idx` ON `inspection_results` (`item_id`,`performed_on`);--> statement-breakpoint
CREATE TABLE `warranty_claims` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`agreement_id` text NOT NULL,
	`case_id` text NOT NULL,
	`description` text NOT NULL,
	`reference` text,
	`state` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`agreement_id`) REFERENCES `agreements`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`case_id`) REFERENCES `workflow_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `warranty_claims_item_idx` ON `warranty_claims` (`item_id`);--> statement-breakpoint
CREATE INDEX `warranty_claims_agreement_idx` ON `warranty_claims` (`agreement_id`);--> statement-breakpoint
CREATE TABLE `workflow_case_history` (
	`id` text PRIMARY KEY NOT NULL,
	`case_id` text NOT NULL,
	`version` integer NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`recorded_at` text NOT NULL,
	`reason` text,
	`data` text NOT NULL,
	FOREIGN KEY (`case_id`) REFERENCES `workflow_cases`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `workflow_case_history_case_idx` ON `workflow_case_history` (`case_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE TABLE `workflow_cases` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`state` text NOT NULL,
	`operation` text NOT NULL,
	`reason` text,
	`decision` text,
	`application_receipt` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `workflow_cases_page_idx` ON `workflow_cases` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `workflow_cases_creator_page_idx` ON `workflow_cases` (`created_by`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `workflow_cases_type_page_idx` ON `workflow_cases` (`type`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `workflow_cases_state_page_idx` ON `workflow_cases` (`state`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `import_batches` (
	`id` text PRIMARY KEY NOT NULL,
	`state` text NOT NULL,
	`file_name` text NOT NULL,
	`preset` text,
	`detected` text NOT NULL,
	`columns` text NOT NULL,
	`row_count` integer NOT NULL,
	`importable_count` integer NOT NULL,
	`skipped_count` integer NOT NULL,
	`error_count` integer NOT NULL,
	`errors` text NOT NULL,
	`warnings` text NOT NULL,
	`references` text NOT NULL,
	`result` text,
	`committed_at` text,
	`committed_by` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `import_rows` (
	`batch_id` text NOT NULL,
	`row_number` integer NOT NULL,
	`status` text NOT NULL,
	`data` text,
	PRIMARY KEY(`batch_id`, `row_number`),
	FOREIGN KEY (`batch_id`) REFERENCES `import_batches`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `planning_audit` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text,
	`record_type` text NOT NULL,
	`record_id` text NOT NULL,
	`action` text NOT NULL,
	`actor_id` text NOT NULL,
	`recorded_at` text NOT NULL,
	`data` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `planning_audit_project_idx` ON `planning_audit` (`project_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE INDEX `planning_audit_record_idx` ON `planning_audit` (`record_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE TABLE `canonical_add_ons` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`price_amount` text NOT NULL,
	`price_currency` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	`updated_by` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `canonical_events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `canonical_add_ons_event_idx` ON `canonical_add_ons` (`event_id`,`name`);--> statement-breakpoint
CREATE TABLE `canonical_events` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`venue` text,
	`starts_at` text NOT NULL,
	`ends_at` text NOT NULL,
	`time_zone` text NOT NULL,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	`updated_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `canonical_events_page_idx` ON `canonical_events` (`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `canonical_inclusions` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`tier_id` text,
	`name` text NOT NULL,
	`description` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	`updated_by` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `canonical_events`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`tier_id`) REFERENCES `canonical_tiers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `canonical_inclusions_event_idx` ON `canonical_inclusions` (`event_id`,`name`);--> statement-breakpoint
CREATE TABLE `canonical_shop_items` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`price_amount` text NOT NULL,
	`price_currency` text NOT NULL,
	`stock` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	`updated_by` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `canonical_events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `canonical_shop_items_event_idx` ON `canonical_shop_items` (`event_id`,`name`);--> statement-breakpoint
CREATE TABLE `canonical_tiers` (
	`id` text PRIMARY KEY NOT NULL,
	`event_id` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`price_amount` text NOT NULL,
	`price_currency` text NOT NULL,
	`capacity` integer,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	`updated_by` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `canonical_events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `canonical_tiers_event_idx` ON `canonical_tiers` (`event_id`,`name`);--> statement-breakpoint
CREATE TABLE `planning_project_members` (
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`role` text NOT NULL,
	`added_at` text NOT NULL,
	`added_by` text NOT NULL,
	PRIMARY KEY(`project_id`, `user_id`),
	FOREIGN KEY (`project_id`) REFERENCES `planning_projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `planning_project_members_user_idx` ON `planning_project_members` (`user_id`,`project_id`);--> statement-breakpoint
CREATE TABLE `planning_projects` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`time_zone` text NOT NULL,
	`starts_on` text,
	`ends_on` text,
	`state` text NOT NULL,
	`paused_from` text,
	`event_id` text,
	`linked_at` text,
	`linked_by` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`event_id`) REFERENCES `canonical_events`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `planning_projects_page_idx` ON `planning_projects` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `planning_projects_state_page_idx` ON `planning_projects` (`state`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `planning_record_people` (
	`record_id` text NOT NULL,
	`user_id` text NOT NULL,
	`relation` text NOT NULL,
	PRIMARY KEY(`record_id`, `user_id`, `relation`),
	FOREIGN KEY (`record_id`) REFERENCES `planning_records`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `planning_record_people_user_idx` ON `planning_record_people` (`user_id`,`record_id`);--> statement-breakpoint
CREATE TABLE `planning_records` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`collection` text NOT NULL,
	`title` text NOT NULL,
	`state` text,
	`due_at` text,
	`data` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `planning_projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `planning_records_page_idx` ON `planning_records` (`project_id`,`collection`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `planning_records_state_page_idx` ON `planning_records` (`project_id`,`collection`,`state`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `planning_records_due_idx` ON `planning_records` (`project_id`,`collection`,`due_at`);--> statement-breakpoint
CREATE TABLE `planning_dependencies` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`from_id` text NOT NULL,
	`to_id` text NOT NULL,
	`kind` text NOT NULL,
	`lag_minutes` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `planning_projects`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`from_id`) REFERENCES `planning_records`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`to_id`) REFERENCES `planning_records`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `planning_dependencies_edge_uq` ON `planning_dependencies` (`project_id`,`from_id`,`to_id`);--> statement-breakpoint
CREATE INDEX `planning_dependencies_to_idx` ON `planning_dependencies` (`to_id`);--> statement-breakpoint
CREATE TABLE `planning_resource_links` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`resource_type` text NOT NULL,
	`resource_id` text NOT NULL,
	`planning_record_id` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `planning_projects`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`planning_record_id`) REFERENCES `planning_records`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `planning_resource_links_uq` ON `planning_resource_links` (`project_id`,`resource_type`,`resource_id`,`planning_record_id`);--> statement-breakpoint
CREATE INDEX `planning_resource_links_record_idx` ON `planning_resource_links` (`planning_record_id`);--> statement-breakpoint
CREATE TABLE `planning_change_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`title` text NOT NULL,
	`state` text NOT NULL,
	`operations` text NOT NULL,
	`reviewed_by` text,
	`reviewed_at` text,
	`review_decision` text,
	`review_reason` text,
	`applied_by` text,
	`applied_at` text,
	`conflicts` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `planning_projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `planning_change_sets_page_idx` ON `planning_change_sets` (`project_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `planning_change_sets_state_page_idx` ON `planning_change_sets` (`project_id`,`state`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `planning_change_sets_review_idx` ON `planning_change_sets` (`state`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `evidence` (
	`id` text PRIMARY KEY NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`classification` text NOT NULL,
	`file_name` text NOT NULL,
	`size` integer NOT NULL,
	`declared_type` text NOT NULL,
	`sniffed_type` text NOT NULL,
	`sha256` text NOT NULL,
	`scan_state` text NOT NULL,
	`scanned_at` text,
	`scan_finding` text,
	`storage_key` text NOT NULL,
	`envelope` text NOT NULL,
	`key_id` text NOT NULL,
	`reviewed_by` text,
	`reviewed_at` text,
	`review_reason` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `evidence_page_idx` ON `evidence` (`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `evidence_target_idx` ON `evidence` (`target_type`,`target_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `evidence_target_id_idx` ON `evidence` (`target_id`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `evidence_scan_idx` ON `evidence` (`scan_state`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `evidence_scan_queue_idx` ON `evidence` (`scan_state`,`scanned_at`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `evidence_classification_idx` ON `evidence` (`classification`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `evidence_events` (
	`id` text PRIMARY KEY NOT NULL,
	`evidence_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor_id` text NOT NULL,
	`recorded_at` text NOT NULL,
	`data` text NOT NULL,
	FOREIGN KEY (`evidence_id`) REFERENCES `evidence`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `evidence_events_evidence_idx` ON `evidence_events` (`evidence_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE TABLE `planning_agenda_items` (
	`id` text PRIMARY KEY NOT NULL,
	`meeting_id` text NOT NULL,
	`position` integer NOT NULL,
	`title` text NOT NULL,
	`duration_minutes` integer NOT NULL,
	`presenter_user_id` text,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`meeting_id`) REFERENCES `planning_records`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `planning_agenda_items_meeting_idx` ON `planning_agenda_items` (`meeting_id`,`position`);--> statement-breakpoint
CREATE TABLE `planning_meeting_occurrences` (
	`id` text PRIMARY KEY NOT NULL,
	`meeting_id` text NOT NULL,
	`occurrence_at` text NOT NULL,
	`cancelled` integer NOT NULL,
	`starts_at` text,
	`ends_at` text,
	`title` text,
	`location` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`meeting_id`) REFERENCES `planning_records`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `planning_meeting_occurrences_idx` ON `planning_meeting_occurrences` (`meeting_id`,`occurrence_at`);--> statement-breakpoint
CREATE TABLE `planning_minutes` (
	`id` text PRIMARY KEY NOT NULL,
	`meeting_id` text NOT NULL,
	`revision` integer NOT NULL,
	`state` text NOT NULL,
	`content` text NOT NULL,
	`decisions` text NOT NULL,
	`action_items` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	`published_at` text,
	`published_by` text,
	`superseded_at` text,
	`superseded_by` text,
	FOREIGN KEY (`meeting_id`) REFERENCES `planning_records`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `planning_minutes_revision_idx` ON `planning_minutes` (`meeting_id`,`revision`);--> statement-breakpoint
CREATE INDEX `planning_minutes_state_idx` ON `planning_minutes` (`meeting_id`,`state`);--> statement-breakpoint
CREATE TABLE `planning_calendar_feeds` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`token_digest` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`project_id`) REFERENCES `planning_projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `planning_calendar_feeds_digest_idx` ON `planning_calendar_feeds` (`token_digest`);--> statement-breakpoint
CREATE INDEX `planning_calendar_feeds_user_idx` ON `planning_calendar_feeds` (`project_id`,`user_id`,`revoked_at`);--> statement-breakpoint
CREATE TABLE `planning_artifacts` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`planning_record_id` text,
	`classification` text NOT NULL,
	`file_name` text NOT NULL,
	`size` integer NOT NULL,
	`declared_type` text NOT NULL,
	`sniffed_type` text NOT NULL,
	`sha256` text NOT NULL,
	`scan_state` text NOT NULL,
	`scan_finding` text,
	`storage_key` text NOT NULL,
	`envelope` text NOT NULL,
	`key_id` text NOT NULL,
	`reviewed_by` text,
	`reviewed_at` text,
	`review_reason` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `planning_projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `planning_artifacts_project_idx` ON `planning_artifacts` (`project_id`,`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `planning_imports` (
	`idempotency_key` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`preview_digest` text NOT NULL,
	`record_count` integer NOT NULL,
	`result` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `planning_projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `planning_imports_project_idx` ON `planning_imports` (`project_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `sms_gateway_attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`device_id` text NOT NULL,
	`lease_id` text NOT NULL,
	`outcome` text NOT NULL,
	`segments` integer NOT NULL,
	`leased_at` text NOT NULL,
	`lease_expires_at` text NOT NULL,
	`rechecked_at` text,
	`client_message_id` text,
	`sent_at` text,
	`delivered_at` text,
	`failed_at` text,
	`android_result_code` integer,
	`carrier_result_code` text,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `sms_gateway_jobs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`device_id`) REFERENCES `sms_gateway_devices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sms_gateway_attempts_lease_idx` ON `sms_gateway_attempts` (`lease_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `sms_gateway_attempts_client_msg_idx` ON `sms_gateway_attempts` (`device_id`,`client_message_id`);--> statement-breakpoint
CREATE INDEX `sms_gateway_attempts_device_idx` ON `sms_gateway_attempts` (`device_id`,`leased_at`);--> statement-breakpoint
CREATE INDEX `sms_gateway_attempts_leased_idx` ON `sms_gateway_attempts` (`leased_at`);--> statement-breakpoint
CREATE INDEX `sms_gateway_attempts_job_idx` ON `sms_gateway_attempts` (`job_id`,`leased_at`);--> statement-breakpoint
CREATE TABLE `sms_gateway_devices` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`state` text NOT NULL,
	`token_digest` text,
	`token_revision` integer NOT NULL,
	`token_issued_at` text,
	`allowed_countries` text NOT NULL,
	`max_segments_per_message` integer NOT NULL,
	`daily_segment_ceiling` integer NOT NULL,
	`sends_per_minute` integer NOT NULL,
	`last_heartbeat_at` text,
	`online` integer NOT NULL,
	`battery_percent` integer,
	`charging` integer,
	`permissions` text NOT NULL,
	`sims` text NOT NULL,
	`version` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sms_gateway_devices_state_idx` ON `sms_gateway_devices` (`state`);--> statement-breakpoint
CREATE TABLE `sms_gateway_job_states` (
	`id` text PRIMARY KEY NOT NULL,
	`job_id` text NOT NULL,
	`state` text NOT NULL,
	`code` text,
	`at` text NOT NULL,
	`actor` text NOT NULL,
	FOREIGN KEY (`job_id`) REFERENCES `sms_gateway_jobs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `sms_gateway_job_states_job_idx` ON `sms_gateway_job_states` (`job_id`,`at`);--> statement-breakpoint
CREATE TABLE `sms_gateway_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`recipient_user_id` text NOT NULL,
	`logical_key` text NOT NULL,
	`purpose` text NOT NULL,
	`state` text NOT NULL,
	`state_code` text,
	`phone_ciphertext` text,
	`text_ciphertext` text,
	`payload_digest` text NOT NULL,
	`content_digest` text NOT NULL,
	`country_code` text NOT NULL,
	`encoding` text NOT NULL,
	`segments` integer NOT NULL,
	`characters` integer NOT NULL,
	`cancellation_revision` integer NOT NULL,
	`expires_at` text NOT NULL,
	`failed_attempts` integer NOT NULL,
	`expired_leases` integer NOT NULL,
	`next_attempt_at` text,
	`lease_id` text,
	`leased_device_id` text,
	`lease_expires_at` text,
	`lease_confirmed_at` text,
	`sent_at` text,
	`delivered_at` text,
	`terminal_at` text,
	`version` integer NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sms_gateway_jobs_logical_key_idx` ON `sms_gateway_jobs` (`logical_key`);--> statement-breakpoint
CREATE INDEX `sms_gateway_jobs_queue_idx` ON `sms_gateway_jobs` (`state`,`created_at`);--> statement-breakpoint
CREATE INDEX `sms_gateway_jobs_lease_idx` ON `sms_gateway_jobs` (`state`,`lease_expires_at`);--> statement-breakpoint
CREATE INDEX `sms_gateway_jobs_content_idx` ON `sms_gateway_jobs` (`content_digest`,`state`);--> statement-breakpoint
CREATE TABLE `planning_channel_bindings` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`user_id` text NOT NULL,
	`channel` text NOT NULL,
	`readiness` text NOT NULL,
	`reason` text,
	`identity_version` integer DEFAULT 0 NOT NULL,
	`locator_cipher` text,
	`locator_mask` text,
	`country_code` text,
	`challenge_digest` text,
	`challenge_expires_at` text,
	`challenge_attempts` integer DEFAULT 0 NOT NULL,
	`challenge_sends` integer DEFAULT 0 NOT NULL,
	`challenge_sent_at` text,
	`challenge_sms_job_id` text,
	`sms_verification` text,
	`sms_consent` text,
	`consent_at` text,
	`reminders` integer DEFAULT false NOT NULL,
	`linked_at` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `planning_projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `planning_channel_bindings_uq` ON `planning_channel_bindings` (`project_id`,`user_id`,`channel`);--> statement-breakpoint
CREATE INDEX `planning_channel_bindings_ready_idx` ON `planning_channel_bindings` (`project_id`,`readiness`);--> statement-breakpoint
CREATE TABLE `planning_destinations` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`target_cipher` text NOT NULL,
	`target_mask` text NOT NULL,
	`last_test_at` text,
	`last_test_disposition` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `planning_projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `planning_destinations_project_idx` ON `planning_destinations` (`project_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `planning_notification_outbox` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`delivery_id` text NOT NULL,
	`reminder_id` text NOT NULL,
	`due_at` text NOT NULL,
	`recipient_user_id` text NOT NULL,
	`channel` text NOT NULL,
	`attempt_no` integer NOT NULL,
	`state` text NOT NULL,
	`disposition` text,
	`destination_mask` text,
	`sms_job_id` text,
	`retry_of` text,
	`recorded_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`completed_at` text,
	FOREIGN KEY (`project_id`) REFERENCES `planning_projects`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`delivery_id`) REFERENCES `planning_reminder_deliveries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `planning_notification_outbox_page_idx` ON `planning_notification_outbox` (`project_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE INDEX `planning_notification_outbox_channel_page_idx` ON `planning_notification_outbox` (`project_id`,`channel`,`recorded_at`,`id`);--> statement-breakpoint
CREATE INDEX `planning_notification_outbox_state_page_idx` ON `planning_notification_outbox` (`project_id`,`state`,`recorded_at`,`id`);--> statement-breakpoint
CREATE INDEX `planning_notification_outbox_recipient_page_idx` ON `planning_notification_outbox` (`project_id`,`recipient_user_id`,`recorded_at`,`id`);--> statement-breakpoint
CREATE INDEX `planning_notification_outbox_work_idx` ON `planning_notification_outbox` (`state`,`recorded_at`);--> statement-breakpoint
CREATE INDEX `planning_notification_outbox_delivery_idx` ON `planning_notification_outbox` (`delivery_id`,`attempt_no`);--> statement-breakpoint
CREATE INDEX `planning_notification_outbox_retry_idx` ON `planning_notification_outbox` (`retry_of`);--> statement-breakpoint
CREATE TABLE `planning_reminder_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`project_id` text NOT NULL,
	`reminder_id` text NOT NULL,
	`recipient_user_id` text NOT NULL,
	`channel` text NOT NULL,
	`identity_version` integer NOT NULL,
	`logical_key` text NOT NULL,
	`due_at` text NOT NULL,
	`state` text NOT NULL,
	`cancel_reason` text,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`project_id`) REFERENCES `planning_projects`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `planning_reminder_deliveries_key_uq` ON `planning_reminder_deliveries` (`logical_key`);--> statement-breakpoint
CREATE INDEX `planning_reminder_deliveries_due_idx` ON `planning_reminder_deliveries` (`state`,`due_at`);--> statement-breakpoint
CREATE INDEX `planning_reminder_deliveries_reminder_idx` ON `planning_reminder_deliveries` (`reminder_id`,`state`);--> statement-breakpoint
CREATE INDEX `planning_reminder_deliveries_recipient_idx` ON `planning_reminder_deliveries` (`project_id`,`recipient_user_id`,`channel`,`state`);--> statement-breakpoint
CREATE TABLE `depreciation_estimates` (
	`id` text PRIMARY KEY NOT NULL,
	`profile_id` text NOT NULL,
	`seq` integer NOT NULL,
	`effective_month` text NOT NULL,
	`useful_life_months` integer NOT NULL,
	`residual_value` text NOT NULL,
	`opening_carrying` text NOT NULL,
	`units_plan` text,
	`reason` text,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`profile_id`) REFERENCES `depreciation_profiles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `depreciation_estimates_seq_uq` ON `depreciation_estimates` (`profile_id`,`seq`);--> statement-breakpoint
CREATE TABLE `depreciation_profiles` (
	`id` text PRIMARY KEY NOT NULL,
	`book_id` text NOT NULL,
	`item_id` text NOT NULL,
	`method` text NOT NULL,
	`declining_rate` text,
	`convention` text NOT NULL,
	`currency` text NOT NULL,
	`cost` text NOT NULL,
	`residual_value` text NOT NULL,
	`useful_life_months` integer NOT NULL,
	`start_date` text NOT NULL,
	`posted_through` text,
	`component_name` text,
	`replaced_by_id` text,
	`replaced_on` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`book_id`) REFERENCES `finance_books`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `depreciation_profiles_book_item_uq` ON `depreciation_profiles` (`book_id`,`item_id`) WHERE component_name is null;--> statement-breakpoint
CREATE UNIQUE INDEX `depreciation_profiles_component_uq` ON `depreciation_profiles` (`book_id`,`item_id`,`component_name`) WHERE component_name is not null and replaced_on is null;--> statement-breakpoint
CREATE INDEX `depreciation_profiles_book_idx` ON `depreciation_profiles` (`book_id`,`id`);--> statement-breakpoint
CREATE TABLE `depreciation_runs` (
	`id` text PRIMARY KEY NOT NULL,
	`book_id` text NOT NULL,
	`period_id` text NOT NULL,
	`entry_ids` text NOT NULL,
	`total` text NOT NULL,
	`currency` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`book_id`) REFERENCES `finance_books`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`period_id`) REFERENCES `finance_periods`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `depreciation_runs_book_period_uq` ON `depreciation_runs` (`book_id`,`period_id`);--> statement-breakpoint
CREATE TABLE `finance_books` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`functional_currency` text NOT NULL,
	`policy_id` text NOT NULL,
	`fiscal_year_start_month` integer NOT NULL,
	`state` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`policy_id`) REFERENCES `policies`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `finance_books_page_idx` ON `finance_books` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `finance_books_state_idx` ON `finance_books` (`state`,`updated_at`,`id`);--> statement-breakpoint
CREATE TABLE `finance_budgets` (
	`id` text PRIMARY KEY NOT NULL,
	`book_id` text NOT NULL,
	`period_id` text NOT NULL,
	`name` text NOT NULL,
	`category_id` text,
	`location_id` text,
	`amount` text NOT NULL,
	`currency` text NOT NULL,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`book_id`) REFERENCES `finance_books`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`period_id`) REFERENCES `finance_periods`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`category_id`) REFERENCES `catalog_categories`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`location_id`) REFERENCES `locations`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `finance_budgets_period_idx` ON `finance_budgets` (`period_id`);--> statement-breakpoint
CREATE TABLE `finance_coverages` (
	`id` text PRIMARY KEY NOT NULL,
	`policy_id` text NOT NULL,
	`item_id` text NOT NULL,
	`sum_insured` text NOT NULL,
	`currency` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`policy_id`) REFERENCES `finance_insurance_policies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `finance_coverages_policy_item_uq` ON `finance_coverages` (`policy_id`,`item_id`);--> statement-breakpoint
CREATE INDEX `finance_coverages_item_idx` ON `finance_coverages` (`item_id`);--> statement-breakpoint
CREATE TABLE `finance_disposals` (
	`id` text PRIMARY KEY NOT NULL,
	`book_id` text NOT NULL,
	`item_id` text NOT NULL,
	`period_id` text NOT NULL,
	`value_date` text NOT NULL,
	`currency` text NOT NULL,
	`proceeds` text NOT NULL,
	`carrying_amount` text NOT NULL,
	`gain_or_loss` text NOT NULL,
	`outcome` text NOT NULL,
	`entry_id` text,
	`reason` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`book_id`) REFERENCES `finance_books`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`period_id`) REFERENCES `finance_periods`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`entry_id`) REFERENCES `finance_value_entries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `finance_disposals_book_item_uq` ON `finance_disposals` (`book_id`,`item_id`);--> statement-breakpoint
CREATE INDEX `finance_disposals_item_idx` ON `finance_disposals` (`item_id`);--> statement-breakpoint
CREATE TABLE `finance_insurance_claims` (
	`id` text PRIMARY KEY NOT NULL,
	`coverage_id` text NOT NULL,
	`policy_id` text NOT NULL,
	`item_id` text NOT NULL,
	`incident_date` text NOT NULL,
	`amount_claimed` text NOT NULL,
	`currency` text NOT NULL,
	`description` text NOT NULL,
	`state` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`coverage_id`) REFERENCES `finance_coverages`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`policy_id`) REFERENCES `finance_insurance_policies`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `finance_insurance_claims_item_idx` ON `finance_insurance_claims` (`item_id`);--> statement-breakpoint
CREATE INDEX `finance_insurance_claims_coverage_idx` ON `finance_insurance_claims` (`coverage_id`);--> statement-breakpoint
CREATE TABLE `finance_insurance_policies` (
	`id` text PRIMARY KEY NOT NULL,
	`insurer` text NOT NULL,
	`policy_number` text NOT NULL,
	`currency` text NOT NULL,
	`premium` text NOT NULL,
	`starts_on` text NOT NULL,
	`ends_on` text NOT NULL,
	`state` text NOT NULL,
	`approved_by` text,
	`approved_at` text,
	`approval_reason` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `finance_insurance_policies_number_uq` ON `finance_insurance_policies` (`insurer`,`policy_number`);--> statement-breakpoint
CREATE TABLE `finance_journal_batches` (
	`id` text PRIMARY KEY NOT NULL,
	`book_id` text NOT NULL,
	`period_id` text NOT NULL,
	`currency` text NOT NULL,
	`entry_count` integer NOT NULL,
	`mapping` text NOT NULL,
	`lines` text NOT NULL,
	`total_debit` text NOT NULL,
	`total_credit` text NOT NULL,
	`state` text NOT NULL,
	`export_count` integer NOT NULL,
	`exported_at` text,
	`exported_by` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`book_id`) REFERENCES `finance_books`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`period_id`) REFERENCES `finance_periods`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `finance_journal_batches_period_uq` ON `finance_journal_batches` (`book_id`,`period_id`);--> statement-breakpoint
CREATE TABLE `finance_lifecycle_costs` (
	`id` text PRIMARY KEY NOT NULL,
	`item_id` text NOT NULL,
	`kind` text NOT NULL,
	`amount` text NOT NULL,
	`currency` text NOT NULL,
	`incurred_on` text NOT NULL,
	`description` text,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `finance_lifecycle_costs_item_idx` ON `finance_lifecycle_costs` (`item_id`,`incurred_on`);--> statement-breakpoint
CREATE TABLE `finance_nrv_reviews` (
	`id` text PRIMARY KEY NOT NULL,
	`book_id` text NOT NULL,
	`period_id` text NOT NULL,
	`item_id` text NOT NULL,
	`value_date` text NOT NULL,
	`currency` text NOT NULL,
	`carrying_amount` text NOT NULL,
	`net_realisable_value` text NOT NULL,
	`impairment` text NOT NULL,
	`outcome` text NOT NULL,
	`workflow_case_id` text,
	`reason` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`book_id`) REFERENCES `finance_books`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`period_id`) REFERENCES `finance_periods`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `finance_nrv_reviews_item_idx` ON `finance_nrv_reviews` (`item_id`,`value_date`);--> statement-breakpoint
CREATE TABLE `finance_periods` (
	`id` text PRIMARY KEY NOT NULL,
	`book_id` text NOT NULL,
	`name` text NOT NULL,
	`starts_on` text NOT NULL,
	`ends_on` text NOT NULL,
	`state` text NOT NULL,
	`closed_at` text,
	`closed_by` text,
	`version` integer DEFAULT 1 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`book_id`) REFERENCES `finance_books`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `finance_periods_page_idx` ON `finance_periods` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `finance_periods_book_idx` ON `finance_periods` (`book_id`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `finance_periods_state_idx` ON `finance_periods` (`state`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `finance_periods_book_dates_idx` ON `finance_periods` (`book_id`,`starts_on`);--> statement-breakpoint
CREATE TABLE `finance_receipts` (
	`id` text PRIMARY KEY NOT NULL,
	`book_id` text NOT NULL,
	`item_id` text NOT NULL,
	`supplier` text NOT NULL,
	`reference` text NOT NULL,
	`received_on` text NOT NULL,
	`amount` text NOT NULL,
	`currency` text NOT NULL,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`book_id`) REFERENCES `finance_books`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `finance_receipts_reference_uq` ON `finance_receipts` (`book_id`,`supplier`,`reference`);--> statement-breakpoint
CREATE INDEX `finance_receipts_book_date_idx` ON `finance_receipts` (`book_id`,`received_on`);--> statement-breakpoint
CREATE TABLE `finance_value_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`book_id` text NOT NULL,
	`period_id` text NOT NULL,
	`item_id` text NOT NULL,
	`kind` text NOT NULL,
	`side` text NOT NULL,
	`amount` text NOT NULL,
	`currency` text NOT NULL,
	`value_date` text NOT NULL,
	`description` text,
	`policy_id` text NOT NULL,
	`workflow_case_id` text,
	`profile_id` text,
	`schedule_month` text,
	`reverses_entry_id` text,
	`reason` text,
	`created_at` text NOT NULL,
	`created_by` text NOT NULL,
	FOREIGN KEY (`book_id`) REFERENCES `finance_books`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`period_id`) REFERENCES `finance_periods`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`item_id`) REFERENCES `items`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `finance_entries_book_date_idx` ON `finance_value_entries` (`book_id`,`value_date`,`id`);--> statement-breakpoint
CREATE INDEX `finance_entries_book_item_idx` ON `finance_value_entries` (`book_id`,`item_id`,`value_date`);--> statement-breakpoint
CREATE INDEX `finance_entries_period_idx` ON `finance_value_entries` (`period_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `finance_entries_reverses_uq` ON `finance_value_entries` (`reverses_entry_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `finance_entries_schedule_uq` ON `finance_value_entries` (`profile_id`,`schedule_month`);