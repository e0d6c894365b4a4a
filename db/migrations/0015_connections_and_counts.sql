CREATE TABLE "tool_servers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"slug" text NOT NULL,
	"url" text NOT NULL,
	"token_sealed" text,
	"token_state" text DEFAULT 'none' NOT NULL,
	"tools" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"read_only_tools" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tools_fetched_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "message_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "first_seq" integer;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "token_ratio" jsonb;--> statement-breakpoint
ALTER TABLE "tool_servers" ADD CONSTRAINT "tool_servers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tool_servers_user_slug_uq" ON "tool_servers" USING btree ("user_id","slug");--> statement-breakpoint
-- Per-session message counts kept on write, so reading a page of a long thread never counts its
-- messages. Inserts and deletes adjust them once per statement (bulk seeds and thread deletes stay
-- cheap); a message moved to another session (a reset) adjusts both. first_seq is re-read from
-- messages_session_seq_idx, which is one index probe.
CREATE FUNCTION baton_session_counts_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sessions s
  SET message_count = s.message_count + n.c,
      first_seq = LEAST(COALESCE(s.first_seq, n.m), n.m)
  FROM (SELECT session_id, count(*)::int AS c, min(seq) AS m FROM new_rows GROUP BY session_id) n
  WHERE s.id = n.session_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION baton_session_counts_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE sessions s
  SET message_count = GREATEST(s.message_count - o.c, 0),
      first_seq = (SELECT min(m.seq) FROM messages m WHERE m.session_id = s.id)
  FROM (SELECT session_id, count(*)::int AS c FROM old_rows GROUP BY session_id) o
  WHERE s.id = o.session_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION baton_session_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.session_id IS DISTINCT FROM NEW.session_id THEN
    UPDATE sessions SET message_count = GREATEST(message_count - 1, 0),
      first_seq = (SELECT min(m.seq) FROM messages m WHERE m.session_id = OLD.session_id)
    WHERE id = OLD.session_id;
  END IF;
  UPDATE sessions SET
    message_count = message_count + (CASE WHEN OLD.session_id IS DISTINCT FROM NEW.session_id THEN 1 ELSE 0 END),
    first_seq = (SELECT min(m.seq) FROM messages m WHERE m.session_id = NEW.session_id)
  WHERE id = NEW.session_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER messages_session_counts_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_session_counts_insert();
--> statement-breakpoint
CREATE TRIGGER messages_session_counts_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION baton_session_counts_delete();
--> statement-breakpoint
CREATE TRIGGER messages_session_counts_move AFTER UPDATE OF session_id, seq ON messages
  FOR EACH ROW WHEN (OLD.session_id IS DISTINCT FROM NEW.session_id OR OLD.seq IS DISTINCT FROM NEW.seq)
  EXECUTE FUNCTION baton_session_counts_move();
--> statement-breakpoint
UPDATE sessions s SET message_count = c.n, first_seq = c.m
FROM (SELECT session_id, count(*)::int AS n, min(seq) AS m FROM messages GROUP BY session_id) c
WHERE s.id = c.session_id;
