CREATE TABLE `approvals` (
	`id` text PRIMARY KEY NOT NULL,
	`turn_id` text NOT NULL,
	`session_id` text NOT NULL,
	`call_id` text NOT NULL,
	`identity` text NOT NULL,
	`tool` text NOT NULL,
	`arguments` text,
	`status` text NOT NULL,
	`note` text,
	`created_at` integer NOT NULL,
	`decided_at` integer,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`turn_id`) REFERENCES `turns`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `approvals_turn_identity` ON `approvals` (`turn_id`,`identity`);--> statement-breakpoint
CREATE INDEX `approvals_status_expires` ON `approvals` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `call_journal` (
	`turn_id` text NOT NULL,
	`identity` text NOT NULL,
	`step` integer NOT NULL,
	`position` integer NOT NULL,
	`tool` text NOT NULL,
	`call_id` text NOT NULL,
	`status` text NOT NULL,
	`outcome` text,
	`started_at` integer NOT NULL,
	`completed_at` integer,
	PRIMARY KEY(`turn_id`, `identity`),
	FOREIGN KEY (`turn_id`) REFERENCES `turns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `checkpoints` (
	`turn_id` text PRIMARY KEY NOT NULL,
	`step` integer NOT NULL,
	`state` text NOT NULL,
	`depth` integer NOT NULL,
	`runner_pid` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`turn_id`) REFERENCES `turns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `memories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` text NOT NULL,
	`tenant` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `memories_agent_tenant` ON `memories` (`agent_id`,`tenant`,`id`);--> statement-breakpoint
CREATE TABLE `skills` (
	`name` text PRIMARY KEY NOT NULL,
	`description` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
