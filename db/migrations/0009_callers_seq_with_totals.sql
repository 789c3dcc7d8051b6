-- Issue 12: callers' totals in the seq index, so a serving worker reads a run's changed
-- callers from the index alone (src/store/callerTotals.ts changesSince), not a row of the
-- table each.
DROP INDEX `callers_seq`;--> statement-breakpoint
CREATE INDEX `callers_seq` ON `callers` (`seq`,`total`);