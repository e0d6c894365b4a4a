ALTER TABLE "messages" ADD COLUMN "run_id" uuid;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "stream_id" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "stream_message_id" text;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "stream_base_parts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "runs_thread_running_idx" ON "runs" USING btree ("thread_id","started_at") WHERE "runs"."status" = 'running';