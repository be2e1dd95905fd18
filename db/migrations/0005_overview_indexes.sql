CREATE INDEX `tool_calls_started` ON `tool_calls` (`started_at`,`ok`);--> statement-breakpoint
CREATE INDEX `tool_calls_tool_started` ON `tool_calls` (`tool`,`started_at`,`ok`);--> statement-breakpoint
CREATE INDEX `tool_calls_tool_duration` ON `tool_calls` (`tool`,`ok`,`duration_ms`,`started_at`);--> statement-breakpoint
CREATE INDEX `tool_calls_blocked` ON `tool_calls` (`started_at`) WHERE json_extract("tool_calls"."record", '$.egress.verdict') = 'blocked';--> statement-breakpoint
CREATE INDEX `turns_started` ON `turns` (`started_at`);