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
CREATE INDEX `hub_rules_label_ci_idx` ON `hub_replenishment_rules` (lower("label"));