ALTER TABLE `turns` ADD `parent_turn_id` text;--> statement-breakpoint
CREATE INDEX `turns_parent` ON `turns` (`parent_turn_id`) WHERE parent_turn_id is not null;