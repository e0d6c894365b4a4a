CREATE TABLE "server_instances" (
	"id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "request_message_id" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "instance_id" text;--> statement-breakpoint
ALTER TABLE "thread_resets" ADD COLUMN "instance_id" text;--> statement-breakpoint
CREATE INDEX "runs_request_idx" ON "runs" USING btree ("thread_id","request_message_id");--> statement-breakpoint
CREATE INDEX "runs_live_idx" ON "runs" USING btree ("status","instance_id");