-- Edited by hand after drizzle-kit generate: feed_deleted WITHOUT ROWID (the key is
-- the row), and the store's own random id, which cursors carry to tell its own
-- positions from another replica's (store/feed.ts). Calls a store already holds
-- take position 0: a walk from the beginning lists them first.
CREATE TABLE `feed_deleted` (
	`call_log_id` text PRIMARY KEY NOT NULL,
	`feed_seq` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `feed_deleted_position` ON `feed_deleted` (`feed_seq`,`call_log_id`);--> statement-breakpoint
CREATE TABLE `feed_syncs` (
	`seq` integer PRIMARY KEY NOT NULL,
	`master_now` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `calls` ADD `feed_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `calls_feed` ON `calls` (`feed_seq`,`call_log_id`);--> statement-breakpoint
INSERT INTO `meta` (`key`, `value`) VALUES ('feed:origin', lower(hex(randomblob(8))));
