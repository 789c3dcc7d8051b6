DROP INDEX `call_minutes_all`;--> statement-breakpoint
DROP INDEX `call_minutes_answered`;--> statement-breakpoint
DROP INDEX `call_minutes_missed`;--> statement-breakpoint
DROP INDEX `call_minutes_offline`;--> statement-breakpoint
DROP INDEX `call_minutes_missed_offline`;