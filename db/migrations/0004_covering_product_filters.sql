DROP INDEX `products_color`;--> statement-breakpoint
DROP INDEX `products_finish`;--> statement-breakpoint
DROP INDEX `products_series`;--> statement-breakpoint
DROP INDEX `products_size`;--> statement-breakpoint
DROP INDEX `products_surface`;--> statement-breakpoint
DROP INDEX `products_range`;--> statement-breakpoint
DROP INDEX `products_texture`;--> statement-breakpoint
CREATE INDEX `products_color` ON `products` (`color`,`id`,`finish`,`series`,`size`,`surface`,`product_range`,`texture`) WHERE status = 1;--> statement-breakpoint
CREATE INDEX `products_finish` ON `products` (`finish`,`id`,`color`,`series`,`size`,`surface`,`product_range`,`texture`) WHERE status = 1;--> statement-breakpoint
CREATE INDEX `products_series` ON `products` (`series`,`id`,`color`,`finish`,`size`,`surface`,`product_range`,`texture`) WHERE status = 1;--> statement-breakpoint
CREATE INDEX `products_size` ON `products` (`size`,`id`,`color`,`finish`,`series`,`surface`,`product_range`,`texture`) WHERE status = 1;--> statement-breakpoint
CREATE INDEX `products_surface` ON `products` (`surface`,`id`,`color`,`finish`,`series`,`size`,`product_range`,`texture`) WHERE status = 1;--> statement-breakpoint
CREATE INDEX `products_range` ON `products` (`product_range`,`id`,`color`,`finish`,`series`,`size`,`surface`,`texture`) WHERE status = 1;--> statement-breakpoint
CREATE INDEX `products_texture` ON `products` (`texture`,`id`,`color`,`finish`,`series`,`size`,`surface`,`product_range`) WHERE status = 1;