-- Edited by hand after drizzle-kit generate (issue 12): did_number and event_type, texts that
-- repeat from call to call, stored once in call_texts and held by calls as ids. A page of
-- calls then reads two small numbers a row where it made two strings (src/store/callTexts.ts).
-- calls stays WITHOUT ROWID in time order (0007); the view calls_readable shows the texts.
CREATE TABLE `call_texts` (
	`id` integer PRIMARY KEY NOT NULL,
	`text` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `call_texts_text` ON `call_texts` (`text`);--> statement-breakpoint
INSERT INTO `call_texts` (`text`) SELECT did_number FROM calls UNION SELECT event_type FROM calls;--> statement-breakpoint
DROP VIEW `calls_readable`;--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_calls` (
	`start` integer NOT NULL,
	`call_log_id` text NOT NULL,
	`website_id` integer NOT NULL,
	`caller_number` text NOT NULL,
	`duration_seconds` integer NOT NULL,
	`did_number` integer NOT NULL,
	`event_type` integer NOT NULL,
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
SELECT "start", "call_log_id", "website_id", "caller_number", "duration_seconds",
  (SELECT t.id FROM call_texts t WHERE t.text = c.did_number), (SELECT t.id FROM call_texts t WHERE t.text = c.event_type),
  "substatus", "recording_url", "crm_lead_id", "crm_synced_at", "created_at", "mobile", "prev_calls_count", "visible", "feed_seq"
FROM `calls` c ORDER BY "start", "call_log_id";--> statement-breakpoint
DROP TABLE `calls`;--> statement-breakpoint
ALTER TABLE `__new_calls` RENAME TO `calls`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `calls_store` ON `calls` (`website_id`,`start`,`call_log_id`,`caller_number`,`duration_seconds`,`did_number`,`event_type`,`substatus`,`recording_url`,`crm_lead_id`,`crm_synced_at`,`created_at`,`mobile`,`prev_calls_count`);--> statement-breakpoint
CREATE UNIQUE INDEX `calls_call_log_id` ON `calls` (`call_log_id`);--> statement-breakpoint
CREATE INDEX `calls_mobile` ON `calls` (`mobile`,`start`,`call_log_id`,`prev_calls_count`);--> statement-breakpoint
CREATE INDEX `calls_feed` ON `calls` (`feed_seq`,`call_log_id`);--> statement-breakpoint
CREATE VIEW `calls_readable` AS SELECT
  iif(typeof(start) = 'integer', datetime(start, 'unixepoch'), start) AS call_start_time,
  call_log_id, website_id, caller_number, duration_seconds,
  (SELECT t.text FROM call_texts t WHERE t.id = c.did_number) AS did_number,
  (SELECT t.text FROM call_texts t WHERE t.id = c.event_type) AS event_type,
  CASE substatus WHEN 1 THEN 'Answered' WHEN 2 THEN 'Missed' WHEN 3 THEN 'Offline' ELSE substatus END AS substatus,
  recording_url, crm_lead_id,
  iif(typeof(crm_synced_at) = 'integer', datetime(start + crm_synced_at, 'unixepoch'), crm_synced_at) AS crm_synced_at,
  iif(typeof(created_at) = 'integer', datetime(start + created_at, 'unixepoch'), created_at) AS created_at,
  substr(mobile, 2) AS mobile, prev_calls_count, visible, feed_seq
FROM calls c;
