CREATE INDEX `approvals_status_created` ON `approvals` (`status`,`created_at`,`id`);--> statement-breakpoint
CREATE INDEX `approvals_created` ON `approvals` (`created_at`,`id`);