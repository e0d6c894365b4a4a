DROP INDEX "handoff_receipts_content_receiver_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "handoff_receipts_handoff_content_receiver_uq" ON "handoff_receipts" USING btree ("handoff_id","content_id","receiver");--> statement-breakpoint
CREATE INDEX "handoffs_owner_updated_idx" ON "handoffs" USING btree ("owner_id","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);