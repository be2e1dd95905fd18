CREATE INDEX "tool_calls_started" ON "tool_calls" USING btree ("started_at","ok");--> statement-breakpoint
CREATE INDEX "tool_calls_tool_started" ON "tool_calls" USING btree ("tool","started_at","ok");--> statement-breakpoint
CREATE INDEX "tool_calls_tool_duration" ON "tool_calls" USING btree ("tool","ok","duration_ms","started_at");--> statement-breakpoint
CREATE INDEX "tool_calls_blocked" ON "tool_calls" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "turns_started" ON "turns" USING btree ("started_at");