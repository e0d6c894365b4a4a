CREATE TABLE "agent_profiles" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"name" text NOT NULL,
	"system_prompt" text NOT NULL,
	"model" text,
	"context_strategy" text DEFAULT 'auto' NOT NULL,
	"reset_threshold" jsonb DEFAULT '0.8'::jsonb NOT NULL,
	"compact_threshold" jsonb DEFAULT '0.5'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "handoff_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"handoff_id" uuid NOT NULL,
	"content_id" text NOT NULL,
	"receiver" text NOT NULL,
	"revision" integer NOT NULL,
	"accepted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "handoff_revisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"handoff_id" uuid NOT NULL,
	"revision" integer NOT NULL,
	"content_id" text NOT NULL,
	"artifact" jsonb NOT NULL,
	"markdown" text NOT NULL,
	"state" text DEFAULT 'prepared' NOT NULL,
	"created_by" text NOT NULL,
	"thread_id" uuid,
	"session_number" integer,
	"model" text,
	"profile" text,
	"redactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "handoffs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" text NOT NULL,
	"handoff_key" text NOT NULL,
	"project" text,
	"repo" text,
	"kind" text DEFAULT 'session' NOT NULL,
	"created_by" text NOT NULL,
	"revision" integer NOT NULL,
	"content_id" text NOT NULL,
	"artifact" jsonb NOT NULL,
	"markdown" text NOT NULL,
	"state" text DEFAULT 'prepared' NOT NULL,
	"thread_id" uuid,
	"session_number" integer,
	"model" text,
	"profile" text,
	"redactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "thread_resets" (
	"thread_id" uuid NOT NULL,
	"from_session" integer NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"trigger" text NOT NULL,
	"lease_expires_at" timestamp with time zone NOT NULL,
	"new_session_id" uuid,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "thread_resets_thread_id_from_session_pk" PRIMARY KEY("thread_id","from_session")
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "handoff_revision_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "summary" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "summary_seq" integer;--> statement-breakpoint
ALTER TABLE "threads" ADD COLUMN "profile" text DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_profiles" ADD CONSTRAINT "agent_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handoff_receipts" ADD CONSTRAINT "handoff_receipts_handoff_id_handoffs_id_fk" FOREIGN KEY ("handoff_id") REFERENCES "public"."handoffs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handoff_revisions" ADD CONSTRAINT "handoff_revisions_handoff_id_handoffs_id_fk" FOREIGN KEY ("handoff_id") REFERENCES "public"."handoffs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handoff_revisions" ADD CONSTRAINT "handoff_revisions_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handoffs" ADD CONSTRAINT "handoffs_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handoffs" ADD CONSTRAINT "handoffs_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thread_resets" ADD CONSTRAINT "thread_resets_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_profiles_user_idx" ON "agent_profiles" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "handoff_receipts_content_receiver_uq" ON "handoff_receipts" USING btree ("content_id","receiver");--> statement-breakpoint
CREATE UNIQUE INDEX "handoff_revisions_handoff_revision_uq" ON "handoff_revisions" USING btree ("handoff_id","revision");--> statement-breakpoint
CREATE UNIQUE INDEX "handoffs_owner_key_uq" ON "handoffs" USING btree ("owner_id","handoff_key");--> statement-breakpoint
CREATE INDEX "handoffs_owner_project_repo_updated_idx" ON "handoffs" USING btree ("owner_id","project","repo","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "handoffs_thread_idx" ON "handoffs" USING btree ("thread_id");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_handoff_revision_id_handoff_revisions_id_fk" FOREIGN KEY ("handoff_revision_id") REFERENCES "public"."handoff_revisions"("id") ON DELETE set null ON UPDATE no action;