CREATE TABLE "agents" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"instructions" text NOT NULL,
	"model" text NOT NULL,
	"tools_allow" text,
	"tools_deny" text NOT NULL,
	"tools_allow_groups" text,
	"tools_deferred" text NOT NULL,
	"approvals" text NOT NULL,
	"limits" text NOT NULL,
	"metadata" text NOT NULL,
	"skills" text NOT NULL,
	"subagents" text NOT NULL,
	"memory" boolean NOT NULL,
	"source" text NOT NULL,
	"archived_at" bigint,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"hash" text NOT NULL,
	"prefix" text NOT NULL,
	"scopes" text NOT NULL,
	"agents" text,
	"tenant" text,
	"turns_per_minute" bigint,
	"expires_at" bigint,
	"created_at" bigint NOT NULL,
	"last_used_at" bigint,
	"revoked_at" bigint
);
--> statement-breakpoint
CREATE TABLE "approvals" (
	"id" text PRIMARY KEY NOT NULL,
	"turn_id" text NOT NULL,
	"session_id" text NOT NULL,
	"call_id" text NOT NULL,
	"identity" text NOT NULL,
	"tool" text NOT NULL,
	"arguments" text,
	"status" text NOT NULL,
	"note" text,
	"created_at" bigint NOT NULL,
	"decided_at" bigint,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL,
	"actor_key_id" text NOT NULL,
	"actor_name" text NOT NULL,
	"source" text NOT NULL,
	"action" text NOT NULL,
	"target" text NOT NULL,
	"summary" text
);
--> statement-breakpoint
CREATE TABLE "call_journal" (
	"turn_id" text NOT NULL,
	"identity" text NOT NULL,
	"step" bigint NOT NULL,
	"position" bigint NOT NULL,
	"tool" text NOT NULL,
	"call_id" text NOT NULL,
	"status" text NOT NULL,
	"outcome" text,
	"started_at" bigint NOT NULL,
	"completed_at" bigint,
	CONSTRAINT "call_journal_turn_id_identity_pk" PRIMARY KEY("turn_id","identity")
);
--> statement-breakpoint
CREATE TABLE "checkpoints" (
	"turn_id" text PRIMARY KEY NOT NULL,
	"step" bigint NOT NULL,
	"state" text NOT NULL,
	"depth" bigint NOT NULL,
	"runner_pid" bigint,
	"runner_instance" text,
	"lease_expires_at" bigint,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"turn_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"type" text NOT NULL,
	"data" text NOT NULL,
	"at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memories" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"tenant" text NOT NULL,
	"text" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"turn_id" text NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"tool_calls" text,
	"call_id" text,
	"tool" text,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"tenant" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "skills" (
	"name" text PRIMARY KEY NOT NULL,
	"description" text NOT NULL,
	"body" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tool_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"turn_id" text NOT NULL,
	"call_id" text NOT NULL,
	"tool" text NOT NULL,
	"ok" boolean NOT NULL,
	"started_at" bigint NOT NULL,
	"duration_ms" bigint NOT NULL,
	"queued_ms" bigint NOT NULL,
	"record" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tool_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"version" bigint NOT NULL,
	"change" text NOT NULL,
	"source" text NOT NULL,
	"definition" text,
	"created_at" bigint NOT NULL,
	"actor_key_id" text,
	"actor_name" text
);
--> statement-breakpoint
CREATE TABLE "tools" (
	"name" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"definition" text NOT NULL,
	"group" text,
	"version" bigint NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "turns" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"status" text NOT NULL,
	"user_message" text NOT NULL,
	"content" text,
	"error" text,
	"usage" text,
	"started_at" bigint NOT NULL,
	"ended_at" bigint,
	"key_id" text
);
--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_turn_id_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."turns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_journal" ADD CONSTRAINT "call_journal_turn_id_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."turns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkpoints" ADD CONSTRAINT "checkpoints_turn_id_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."turns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_turn_id_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."turns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memories" ADD CONSTRAINT "memories_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_turn_id_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."turns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_calls" ADD CONSTRAINT "tool_calls_turn_id_turns_id_fk" FOREIGN KEY ("turn_id") REFERENCES "public"."turns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "turns" ADD CONSTRAINT "turns_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "api_keys_created" ON "api_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "approvals_turn_identity" ON "approvals" USING btree ("turn_id","identity");--> statement-breakpoint
CREATE INDEX "approvals_status_expires" ON "approvals" USING btree ("status","expires_at");--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "audit_log_target" ON "audit_log" USING btree ("target","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_actor" ON "audit_log" USING btree ("actor_key_id","created_at");--> statement-breakpoint
CREATE INDEX "events_turn_seq" ON "events" USING btree ("turn_id","seq");--> statement-breakpoint
CREATE INDEX "memories_agent_tenant" ON "memories" USING btree ("agent_id","tenant","id");--> statement-breakpoint
CREATE INDEX "messages_session_id" ON "messages" USING btree ("session_id","id");--> statement-breakpoint
CREATE INDEX "sessions_agent_updated" ON "sessions" USING btree ("agent_id","updated_at");--> statement-breakpoint
CREATE INDEX "tool_calls_turn" ON "tool_calls" USING btree ("turn_id","id");--> statement-breakpoint
CREATE INDEX "tool_versions_name_version" ON "tool_versions" USING btree ("name","version");--> statement-breakpoint
CREATE INDEX "turns_session_seq" ON "turns" USING btree ("session_id","seq");--> statement-breakpoint
CREATE INDEX "turns_status" ON "turns" USING btree ("status");--> statement-breakpoint
CREATE INDEX "turns_key_started" ON "turns" USING btree ("key_id","started_at");