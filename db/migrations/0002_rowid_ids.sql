PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_events` (
	`id` integer PRIMARY KEY NOT NULL,
	`turn_id` text NOT NULL,
	`seq` integer NOT NULL,
	`type` text NOT NULL,
	`data` text NOT NULL,
	`at` integer NOT NULL,
	FOREIGN KEY (`turn_id`) REFERENCES `turns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_events`("id", "turn_id", "seq", "type", "data", "at") SELECT "id", "turn_id", "seq", "type", "data", "at" FROM `events`;--> statement-breakpoint
DROP TABLE `events`;--> statement-breakpoint
ALTER TABLE `__new_events` RENAME TO `events`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `events_turn_seq` ON `events` (`turn_id`,`seq`);--> statement-breakpoint
CREATE TABLE `__new_messages` (
	`id` integer PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`turn_id` text NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`tool_calls` text,
	`call_id` text,
	`tool` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`session_id`) REFERENCES `sessions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`turn_id`) REFERENCES `turns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_messages`("id", "session_id", "turn_id", "role", "content", "tool_calls", "call_id", "tool", "created_at") SELECT "id", "session_id", "turn_id", "role", "content", "tool_calls", "call_id", "tool", "created_at" FROM `messages`;--> statement-breakpoint
DROP TABLE `messages`;--> statement-breakpoint
ALTER TABLE `__new_messages` RENAME TO `messages`;--> statement-breakpoint
CREATE INDEX `messages_session_id` ON `messages` (`session_id`,`id`);--> statement-breakpoint
CREATE TABLE `__new_tool_calls` (
	`id` integer PRIMARY KEY NOT NULL,
	`turn_id` text NOT NULL,
	`call_id` text NOT NULL,
	`tool` text NOT NULL,
	`ok` integer NOT NULL,
	`started_at` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`queued_ms` integer NOT NULL,
	`record` text NOT NULL,
	FOREIGN KEY (`turn_id`) REFERENCES `turns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_tool_calls`("id", "turn_id", "call_id", "tool", "ok", "started_at", "duration_ms", "queued_ms", "record") SELECT "id", "turn_id", "call_id", "tool", "ok", "started_at", "duration_ms", "queued_ms", "record" FROM `tool_calls`;--> statement-breakpoint
DROP TABLE `tool_calls`;--> statement-breakpoint
ALTER TABLE `__new_tool_calls` RENAME TO `tool_calls`;--> statement-breakpoint
CREATE INDEX `tool_calls_turn` ON `tool_calls` (`turn_id`,`id`);