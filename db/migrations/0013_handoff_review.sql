CREATE TABLE "ahead_drafts" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"thread_id" uuid NOT NULL,
	"artifact" jsonb NOT NULL,
	"source" text NOT NULL,
	"writer_tokens" integer DEFAULT 0 NOT NULL,
	"through_seq" integer NOT NULL,
	"model_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reset_drafts" (
	"thread_id" uuid NOT NULL,
	"from_session" integer NOT NULL,
	"trigger" text NOT NULL,
	"state" text DEFAULT 'awaiting_review' NOT NULL,
	"artifact" jsonb NOT NULL,
	"dropped" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"redactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"source" text NOT NULL,
	"writer_tokens" integer DEFAULT 0 NOT NULL,
	"context" jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reset_drafts_thread_id_from_session_pk" PRIMARY KEY("thread_id","from_session")
);
--> statement-breakpoint
CREATE TABLE "thread_pins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"thread_id" uuid NOT NULL,
	"text" text NOT NULL,
	"normalized" text NOT NULL,
	"state" text DEFAULT 'pinned' NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_profiles" ADD COLUMN "review_resets" text DEFAULT 'manual' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_profiles" ADD COLUMN "draft_threshold" jsonb DEFAULT '0.65'::jsonb;--> statement-breakpoint
ALTER TABLE "ahead_drafts" ADD CONSTRAINT "ahead_drafts_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ahead_drafts" ADD CONSTRAINT "ahead_drafts_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reset_drafts" ADD CONSTRAINT "reset_drafts_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thread_pins" ADD CONSTRAINT "thread_pins_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reset_drafts_waiting_idx" ON "reset_drafts" USING btree ("expires_at") WHERE state = 'awaiting_review';--> statement-breakpoint
CREATE UNIQUE INDEX "thread_pins_thread_text_uq" ON "thread_pins" USING btree ("thread_id","normalized");--> statement-breakpoint
-- Pins become thread state: each thread starts with what its current session's brief carried.
INSERT INTO "thread_pins" ("thread_id", "text", "normalized", "source")
SELECT DISTINCT ON (s.thread_id, lower(regexp_replace(btrim(p.item), '\s+', ' ', 'g')))
  s.thread_id, btrim(p.item), lower(regexp_replace(btrim(p.item), '\s+', ' ', 'g')), 'handoff'
FROM "sessions" s
JOIN "handoff_revisions" r ON r.id = s.handoff_revision_id
CROSS JOIN LATERAL jsonb_array_elements_text(
  CASE WHEN jsonb_typeof(r.artifact->'must_preserve') = 'array' THEN r.artifact->'must_preserve' ELSE '[]'::jsonb END
) AS p(item)
WHERE s.number = (SELECT max(s2.number) FROM "sessions" s2 WHERE s2.thread_id = s.thread_id)
  AND btrim(p.item) <> ''
ON CONFLICT DO NOTHING;
