-- Call records PostgreSQL's JSON types cannot read (a \u0000 escape or a lone surrogate, which
-- JSON.stringify writes for what a tool or a model produced) are made readable first: each such
-- escape becomes \ufffd (an escaped backslash before "u0000" is left alone). The partial index
-- below reads every record as jsonb, and so do the Overview's queries.
UPDATE "tool_calls" SET "record" = regexp_replace("record", '(?<!\\)((?:\\\\)*)\\u(0000|d[89a-f][0-9a-f]{2})', '\1\\ufffd', 'gi') WHERE "record" ~* '\\u(0000|d[89a-f])';--> statement-breakpoint
DROP INDEX "tool_calls_blocked";--> statement-breakpoint
CREATE INDEX "tool_calls_blocked" ON "tool_calls" USING btree ("started_at") WHERE (cast(record as jsonb) #>> '{egress,verdict}') = 'blocked';
