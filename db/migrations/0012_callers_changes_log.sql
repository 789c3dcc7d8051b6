-- Edited by hand after drizzle-kit generate: WITHOUT ROWID (the key is the row). Issue 12: the
-- callers a run changed are appended to a log by run (src/store/schema.ts callerChanges), not
-- moved within an index of every caller by its last run. The log starts empty, complete for the
-- runs after the store's newest (meta callers:changes_from): a server whose callers' base is
-- older reads every caller again (src/store/callerTotals.ts).
CREATE TABLE `caller_changes` (
	`seq` integer NOT NULL,
	`mobile` integer NOT NULL,
	`total` integer NOT NULL,
	PRIMARY KEY(`seq`, `mobile`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT OR REPLACE INTO `meta` (`key`, `value`) SELECT 'callers:changes_from', coalesce(max(`seq`), 0) FROM `feed_syncs`;--> statement-breakpoint
DROP INDEX `callers_seq`;--> statement-breakpoint
ALTER TABLE `callers` DROP COLUMN `seq`;
