-- Edited by hand after drizzle-kit generate (issue 12's read layout):
-- - calls in time order and stored compact (src/store/callCodec.ts: times as seconds,
--   created_at and crm_synced_at as seconds after the start, substatus 1/2/3, mobile as
--   the number "1" + digits; a value that is not a real time or a known substatus stays
--   text), with whether the call's store is visible; WITHOUT ROWID (the key is the row);
--   every call again by store in the covering index calls_store;
-- - metrics keyed by one integer, the store and the day (src/store/listingFigures.ts);
-- - call_minutes keyed by minutes since 1970;
-- - callers keyed by the mobile's number, with the run that last changed each total;
-- - the view calls_readable shows calls as the master's text, for people and tests.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_calls` (
	`start` integer NOT NULL,
	`call_log_id` text NOT NULL,
	`website_id` integer NOT NULL,
	`caller_number` text NOT NULL,
	`duration_seconds` integer NOT NULL,
	`did_number` text NOT NULL,
	`event_type` text NOT NULL,
	`substatus` integer NOT NULL,
	`recording_url` text,
	`crm_lead_id` text,
	`crm_synced_at` integer,
	`created_at` integer NOT NULL,
	`mobile` integer NOT NULL,
	`prev_calls_count` integer DEFAULT 0 NOT NULL,
	`visible` integer DEFAULT 0 NOT NULL,
	`feed_seq` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`start`, `call_log_id`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `__new_calls`("start", "call_log_id", "website_id", "caller_number", "duration_seconds", "did_number", "event_type", "substatus", "recording_url", "crm_lead_id", "crm_synced_at", "created_at", "mobile", "prev_calls_count", "visible", "feed_seq")
SELECT s, call_log_id, website_id, caller_number, duration_seconds, did_number, event_type,
  CASE substatus WHEN 'Answered' THEN 1 WHEN 'Missed' THEN 2 WHEN 'Offline' THEN 3 ELSE substatus END,
  recording_url, crm_lead_id,
  iif(typeof(s) = 'integer' AND (length(crm_synced_at) = 19 AND substr(crm_synced_at, 1, 4) <> '0000' AND datetime(unixepoch(crm_synced_at), 'unixepoch') IS crm_synced_at), unixepoch(crm_synced_at) - s, crm_synced_at),
  iif(typeof(s) = 'integer' AND (length(created_at) = 19 AND substr(created_at, 1, 4) <> '0000' AND datetime(unixepoch(created_at), 'unixepoch') IS created_at), unixepoch(created_at) - s, created_at),
  CAST('1' || mobile AS INTEGER), prev_calls_count,
  coalesce((SELECT st.visible FROM stores st WHERE st.website_id = c.website_id), 0), feed_seq
FROM (SELECT c.*, iif((length(call_start_time) = 19 AND substr(call_start_time, 1, 4) <> '0000' AND datetime(unixepoch(call_start_time), 'unixepoch') IS call_start_time), unixepoch(call_start_time), call_start_time) AS s FROM `calls` c) c
ORDER BY 1, 2;--> statement-breakpoint
DROP TABLE `calls`;--> statement-breakpoint
ALTER TABLE `__new_calls` RENAME TO `calls`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `calls_store` ON `calls` (`website_id`,`start`,`call_log_id`,`caller_number`,`duration_seconds`,`did_number`,`event_type`,`substatus`,`recording_url`,`crm_lead_id`,`crm_synced_at`,`created_at`,`mobile`,`prev_calls_count`);--> statement-breakpoint
CREATE UNIQUE INDEX `calls_call_log_id` ON `calls` (`call_log_id`);--> statement-breakpoint
CREATE INDEX `calls_mobile` ON `calls` (`mobile`,`start`,`call_log_id`,`prev_calls_count`);--> statement-breakpoint
CREATE INDEX `calls_feed` ON `calls` (`feed_seq`,`call_log_id`);--> statement-breakpoint
CREATE TABLE `__new_metrics` (
	`k` integer PRIMARY KEY NOT NULL,
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
	`cum_business_bookings` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_metrics`("k", "website_id", "metric_date", "desktop_search_impressions", "mobile_search_impressions", "desktop_maps_impressions", "mobile_maps_impressions", "website_clicks", "call_clicks", "direction_requests", "business_bookings", "seq", "cum_search", "cum_website_clicks", "cum_call_clicks", "cum_direction_requests", "cum_business_bookings") SELECT website_id * 8388608 + coalesce(unixepoch(metric_date) / 86400, -4194304) + 4194304, "website_id", "metric_date", "desktop_search_impressions", "mobile_search_impressions", "desktop_maps_impressions", "mobile_maps_impressions", "website_clicks", "call_clicks", "direction_requests", "business_bookings", "seq", "cum_search", "cum_website_clicks", "cum_call_clicks", "cum_direction_requests", "cum_business_bookings" FROM `metrics` ORDER BY 1;--> statement-breakpoint
DROP TABLE `metrics`;--> statement-breakpoint
ALTER TABLE `__new_metrics` RENAME TO `metrics`;--> statement-breakpoint
CREATE TABLE `__new_call_minutes` (
	`minute` integer PRIMARY KEY NOT NULL,
	`answered` integer NOT NULL,
	`missed` integer NOT NULL,
	`offline` integer NOT NULL,
	`cum_answered` integer DEFAULT 0 NOT NULL,
	`cum_missed` integer DEFAULT 0 NOT NULL,
	`cum_offline` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_call_minutes`("minute", "answered", "missed", "offline", "cum_answered", "cum_missed", "cum_offline") SELECT unixepoch("minute" || ':00') / 60, "answered", "missed", "offline", "cum_answered", "cum_missed", "cum_offline" FROM `call_minutes` ORDER BY 1;--> statement-breakpoint
DROP TABLE `call_minutes`;--> statement-breakpoint
ALTER TABLE `__new_call_minutes` RENAME TO `call_minutes`;--> statement-breakpoint
CREATE TABLE `__new_callers` (
	`mobile` integer PRIMARY KEY NOT NULL,
	`total` integer NOT NULL,
	`seq` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
INSERT INTO `__new_callers`("mobile", "total", "seq") SELECT CAST('1' || `mobile` AS INTEGER), `total`, 0 FROM `callers` ORDER BY 1;--> statement-breakpoint
DROP TABLE `callers`;--> statement-breakpoint
ALTER TABLE `__new_callers` RENAME TO `callers`;--> statement-breakpoint
CREATE INDEX `callers_seq` ON `callers` (`seq`);--> statement-breakpoint
CREATE VIEW `calls_readable` AS SELECT
  iif(typeof(start) = 'integer', datetime(start, 'unixepoch'), start) AS call_start_time,
  call_log_id, website_id, caller_number, duration_seconds, did_number, event_type,
  CASE substatus WHEN 1 THEN 'Answered' WHEN 2 THEN 'Missed' WHEN 3 THEN 'Offline' ELSE substatus END AS substatus,
  recording_url, crm_lead_id,
  iif(typeof(crm_synced_at) = 'integer', datetime(start + crm_synced_at, 'unixepoch'), crm_synced_at) AS crm_synced_at,
  iif(typeof(created_at) = 'integer', datetime(start + created_at, 'unixepoch'), created_at) AS created_at,
  substr(mobile, 2) AS mobile, prev_calls_count, visible, feed_seq
FROM calls;
