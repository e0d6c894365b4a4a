DROP INDEX "handoffs_owner_updated_idx";--> statement-breakpoint
DROP INDEX "threads_user_updated_idx";--> statement-breakpoint
DROP INDEX "handoffs_owner_project_repo_updated_idx";--> statement-breakpoint
CREATE INDEX "handoffs_owner_updated_id_idx" ON "handoffs" USING btree ("owner_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "threads_user_updated_id_idx" ON "threads" USING btree ("user_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "handoffs_owner_project_repo_updated_idx" ON "handoffs" USING btree ("owner_id","project","repo","updated_at","id");