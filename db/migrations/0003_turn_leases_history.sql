PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_memories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`agent_id` text NOT NULL,
	`tenant` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
INSERT INTO `__new_memories`("id", "agent_id", "tenant", "text", "created_at") SELECT "id", "agent_id", "tenant", "text", "created_at" FROM `memories`;--> statement-breakpoint
DROP TABLE `memories`;--> statement-breakpoint
ALTER TABLE `__new_memories` RENAME TO `memories`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `memories_agent_tenant` ON `memories` (`agent_id`,`tenant`,`id`);--> statement-breakpoint
CREATE TABLE `__new_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`agent_id` text NOT NULL,
	`tenant` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`agent_id`) REFERENCES `agents`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
INSERT INTO `__new_sessions`("id", "agent_id", "tenant", "created_at", "updated_at") SELECT "id", "agent_id", "tenant", "created_at", "updated_at" FROM `sessions`;--> statement-breakpoint
DROP TABLE `sessions`;--> statement-breakpoint
ALTER TABLE `__new_sessions` RENAME TO `sessions`;--> statement-breakpoint
CREATE INDEX `sessions_agent_updated` ON `sessions` (`agent_id`,`updated_at`);--> statement-breakpoint
ALTER TABLE `agents` ADD `archived_at` integer;--> statement-breakpoint
ALTER TABLE `checkpoints` ADD `runner_instance` text;--> statement-breakpoint
ALTER TABLE `checkpoints` ADD `lease_expires_at` integer;