DROP INDEX `calls_time`;--> statement-breakpoint
DROP INDEX `calls_mobile`;--> statement-breakpoint
CREATE INDEX `calls_time` ON `calls` (`call_start_time`,`call_log_id`,`substatus`);--> statement-breakpoint
CREATE INDEX `calls_mobile` ON `calls` (`mobile`,`call_start_time`,`call_log_id`,`prev_calls_count`);