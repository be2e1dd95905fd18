DROP INDEX `sessions_agent_updated`;--> statement-breakpoint
CREATE INDEX `sessions_tenant_updated` ON `sessions` (`tenant`,`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_updated` ON `sessions` (`updated_at`,`id`);--> statement-breakpoint
CREATE INDEX `sessions_agent_updated` ON `sessions` (`agent_id`,`updated_at`,`id`);