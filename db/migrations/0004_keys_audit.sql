CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`hash` text NOT NULL,
	`prefix` text NOT NULL,
	`scopes` text NOT NULL,
	`agents` text,
	`tenant` text,
	`turns_per_minute` integer,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE INDEX `api_keys_created` ON `api_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`actor_key_id` text NOT NULL,
	`actor_name` text NOT NULL,
	`source` text NOT NULL,
	`action` text NOT NULL,
	`target` text NOT NULL,
	`summary` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_target` ON `audit_log` (`target`,`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_actor` ON `audit_log` (`actor_key_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `tool_versions` ADD `actor_key_id` text;--> statement-breakpoint
ALTER TABLE `tool_versions` ADD `actor_name` text;--> statement-breakpoint
ALTER TABLE `turns` ADD `key_id` text;--> statement-breakpoint
CREATE INDEX `turns_key_started` ON `turns` (`key_id`,`started_at`);