-- Edited by hand after drizzle-kit generate: WITHOUT ROWID (the key is the row), and
-- a store made by an earlier version gets its callers from the calls it holds.
CREATE TABLE `callers` (
	`mobile` text PRIMARY KEY NOT NULL,
	`total` integer NOT NULL
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `callers` (`mobile`, `total`) SELECT `mobile`, max(`prev_calls_count`) + 1 FROM `calls` GROUP BY `mobile`;
