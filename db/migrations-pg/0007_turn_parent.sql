ALTER TABLE "turns" ADD COLUMN "parent_turn_id" text;--> statement-breakpoint
CREATE INDEX "turns_parent" ON "turns" USING btree ("parent_turn_id") WHERE parent_turn_id is not null;