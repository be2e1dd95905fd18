CREATE INDEX `tool_calls_started` ON `tool_calls` (`started_at`,`tool`,`ok`,`duration_ms`);--> statement-breakpoint
CREATE INDEX `tool_calls_tool_started` ON `tool_calls` (`tool`,`started_at`,`ok`,`duration_ms`);--> statement-breakpoint
CREATE INDEX `tool_calls_blocked` ON `tool_calls` (`started_at`) WHERE json_extract("tool_calls"."record", '$.egress.verdict') = 'blocked';--> statement-breakpoint
CREATE INDEX `turns_started` ON `turns` (`started_at`);