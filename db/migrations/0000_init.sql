CREATE TABLE `agents` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`instructions` text NOT NULL,
	`model` text NOT NULL,
	`tools_allow` text,
	`tools_deny` text NOT NULL,
	`tools_allow_groups` text,
	`tools_deferred` text NOT NULL,
	`approvals` text NOT NULL,
	`limits` text NOT NULL,
	`metadata` text NOT NULL,
	`skills` text NOT NULL,
	`subagents` text NOT NULL,
	`memory` integer NOT NULL,
	`source` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tool_versions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`version` integer NOT NULL,
	`change` text NOT NULL,
	`source` text NOT NULL,
	`definition` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tool_versions_name_version` ON `tool_versions` (`name`,`version`);--> statement-breakpoint
CREATE TABLE `tools` (
	`name` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`definition` text NOT NULL,
	`group` text,
	`version` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
