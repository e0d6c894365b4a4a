CREATE TABLE "run_events" (
	"run_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"thread_id" uuid NOT NULL,
	"type" text NOT NULL,
	"agent" text,
	"invocation_id" text,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_events_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
DROP INDEX "agent_profiles_user_idx";--> statement-breakpoint
-- Profiles are keyed by (owner, slug) now. Nothing wrote ownerless rows; any left are dropped.
DELETE FROM "agent_profiles" WHERE "user_id" IS NULL;--> statement-breakpoint
ALTER TABLE "agent_profiles" DROP CONSTRAINT "agent_profiles_pkey";--> statement-breakpoint
ALTER TABLE "agent_profiles" ALTER COLUMN "user_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_profiles" ADD CONSTRAINT "agent_profiles_user_id_id_pk" PRIMARY KEY("user_id","id");--> statement-breakpoint
ALTER TABLE "agent_profiles" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_profiles" ADD COLUMN "tools_allow" jsonb DEFAULT '["list_files","read_file","write_file","edit_file","delete_file","update_plan"]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_profiles" ADD COLUMN "delegation" jsonb DEFAULT '{"canHandoff":false,"callable":true,"allowAsHandoffTarget":true,"allowedCallers":"*","maxHandoffDepth":3}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "handoff_revisions" ADD COLUMN "kind" text DEFAULT 'session' NOT NULL;--> statement-breakpoint
ALTER TABLE "handoff_revisions" ADD COLUMN "brief" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "agent" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "handoff_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "run_events" ADD CONSTRAINT "run_events_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_events" ADD CONSTRAINT "run_events_thread_id_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."threads"("id") ON DELETE cascade ON UPDATE no action;