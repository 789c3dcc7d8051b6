-- Edited by hand after drizzle-kit generate: the clustered tables are WITHOUT ROWID
-- (drizzle's schema cannot say so), so rows sit in primary-key order on disk.
CREATE TABLE `call_days` (
	`website_id` integer NOT NULL,
	`day` text NOT NULL,
	`answered` integer NOT NULL,
	`missed` integer NOT NULL,
	`offline` integer NOT NULL,
	`sec_answered` integer NOT NULL,
	`sec_missed` integer NOT NULL,
	`sec_offline` integer NOT NULL,
	`cum_answered` integer DEFAULT 0 NOT NULL,
	`cum_missed` integer DEFAULT 0 NOT NULL,
	`cum_offline` integer DEFAULT 0 NOT NULL,
	`cum_sec_answered` integer DEFAULT 0 NOT NULL,
	`cum_sec_missed` integer DEFAULT 0 NOT NULL,
	`cum_sec_offline` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`website_id`, `day`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `call_minutes` (
	`minute` text PRIMARY KEY NOT NULL,
	`answered` integer NOT NULL,
	`missed` integer NOT NULL,
	`offline` integer NOT NULL,
	`cum_answered` integer DEFAULT 0 NOT NULL,
	`cum_missed` integer DEFAULT 0 NOT NULL,
	`cum_offline` integer DEFAULT 0 NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `call_minutes_all` ON `call_minutes` (("cum_answered" + "cum_missed" + "cum_offline"),`minute`);--> statement-breakpoint
CREATE INDEX `call_minutes_answered` ON `call_minutes` (`cum_answered`,`minute`);--> statement-breakpoint
CREATE INDEX `call_minutes_missed` ON `call_minutes` (`cum_missed`,`minute`);--> statement-breakpoint
CREATE INDEX `call_minutes_offline` ON `call_minutes` (`cum_offline`,`minute`);--> statement-breakpoint
CREATE INDEX `call_minutes_missed_offline` ON `call_minutes` (("cum_missed" + "cum_offline"),`minute`);--> statement-breakpoint
CREATE TABLE `callers` (
	`mobile` text PRIMARY KEY NOT NULL,
	`total_calls` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `calls` (
	`website_id` integer NOT NULL,
	`call_start_time` text NOT NULL,
	`call_log_id` text NOT NULL,
	`caller_number` text NOT NULL,
	`duration_seconds` integer NOT NULL,
	`did_number` text NOT NULL,
	`event_type` text NOT NULL,
	`substatus` text NOT NULL,
	`recording_url` text,
	`crm_lead_id` text,
	`crm_synced_at` text,
	`created_at` text NOT NULL,
	`mobile` text DEFAULT '' NOT NULL,
	`prev_calls_count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`website_id`, `call_start_time`, `call_log_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE UNIQUE INDEX `calls_call_log_id` ON `calls` (`call_log_id`);--> statement-breakpoint
CREATE INDEX `calls_time` ON `calls` (`call_start_time`,`call_log_id`);--> statement-breakpoint
CREATE INDEX `calls_mobile` ON `calls` (`mobile`,`call_start_time`,`call_log_id`);--> statement-breakpoint
CREATE TABLE `dealers` (
	`sap_code` text PRIMARY KEY NOT NULL,
	`dealer_name` text,
	`is_active` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `employee_dealers` (
	`emp_code` text NOT NULL,
	`sap_code` text NOT NULL,
	PRIMARY KEY(`emp_code`, `sap_code`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `employees` (
	`emp_code` text PRIMARY KEY NOT NULL,
	`emp_name` text NOT NULL,
	`sales_office` text NOT NULL,
	`role` text NOT NULL,
	`is_active` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `integrations` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`key_sha256` text NOT NULL,
	`is_active` integer NOT NULL,
	`created_at` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `integrations_key` ON `integrations` (`key_sha256`);--> statement-breakpoint
CREATE TABLE `meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `metrics` (
	`website_id` integer NOT NULL,
	`metric_date` text NOT NULL,
	`desktop_search_impressions` integer NOT NULL,
	`mobile_search_impressions` integer NOT NULL,
	`desktop_maps_impressions` integer NOT NULL,
	`mobile_maps_impressions` integer NOT NULL,
	`website_clicks` integer NOT NULL,
	`call_clicks` integer NOT NULL,
	`direction_requests` integer NOT NULL,
	`business_bookings` integer NOT NULL,
	`seq` integer DEFAULT 0 NOT NULL,
	`cum_search` integer DEFAULT 0 NOT NULL,
	`cum_website_clicks` integer DEFAULT 0 NOT NULL,
	`cum_call_clicks` integer DEFAULT 0 NOT NULL,
	`cum_direction_requests` integer DEFAULT 0 NOT NULL,
	`cum_business_bookings` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`website_id`, `metric_date`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `product_images` (
	`id` integer PRIMARY KEY NOT NULL,
	`product_id` integer NOT NULL,
	`image_path` text NOT NULL,
	`sort_order` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `product_images_product` ON `product_images` (`product_id`,`sort_order`,`id`);--> statement-breakpoint
CREATE TABLE `products` (
	`id` integer PRIMARY KEY NOT NULL,
	`sku` text NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`color` text,
	`finish` text,
	`series` text,
	`size` text,
	`surface` text,
	`product_range` text,
	`texture` text,
	`status` integer NOT NULL,
	`images` text DEFAULT '[]' NOT NULL,
	`active_seq` integer
);
--> statement-breakpoint
CREATE INDEX `products_color` ON `products` (`color`,`id`) WHERE status = 1;--> statement-breakpoint
CREATE INDEX `products_finish` ON `products` (`finish`,`id`) WHERE status = 1;--> statement-breakpoint
CREATE INDEX `products_series` ON `products` (`series`,`id`) WHERE status = 1;--> statement-breakpoint
CREATE INDEX `products_size` ON `products` (`size`,`id`) WHERE status = 1;--> statement-breakpoint
CREATE INDEX `products_surface` ON `products` (`surface`,`id`) WHERE status = 1;--> statement-breakpoint
CREATE INDEX `products_range` ON `products` (`product_range`,`id`) WHERE status = 1;--> statement-breakpoint
CREATE INDEX `products_texture` ON `products` (`texture`,`id`) WHERE status = 1;--> statement-breakpoint
CREATE UNIQUE INDEX `products_active_seq` ON `products` (`active_seq`);--> statement-breakpoint
CREATE TABLE `stores` (
	`website_id` integer PRIMARY KEY NOT NULL,
	`sap_code` text NOT NULL,
	`store_name` text,
	`city` text,
	`district` text,
	`state` text,
	`country` text,
	`pincode` text,
	`is_deleted` integer NOT NULL,
	`visible` integer DEFAULT 0 NOT NULL,
	`dealership_name` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `stores_sap` ON `stores` (`sap_code`,`website_id`);--> statement-breakpoint
CREATE TABLE `sync_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`started_at` text NOT NULL,
	`finished_at` text,
	`ok` integer,
	`error` text,
	`stats` text
);
