-- Edited by hand after drizzle-kit generate, which splits the expression at its commas.
-- Issue 12: calls_mobile by time bucket first (src/store/schema.ts CALL_BUCKET_SQL), so a
-- day's new calls go into the last bucket's pages, not into a random page of the whole index
-- each, and an incremental run places a new call from the callers' totals and that bucket.
DROP INDEX `calls_mobile`;--> statement-breakpoint
CREATE INDEX `calls_mobile` ON `calls` ((iif(typeof(start) IN ('text', 'blob'), 4503599627370496, start >> 20)),`mobile`,`start`,`call_log_id`,`prev_calls_count`);
