-- The searchable text of a message's parts: its text parts and every string in its tool outputs
-- (search_history's own outputs left out, so a recall never finds earlier recalls). IMMUTABLE, so
-- the generated search column may use it; it reads nothing but its argument.
CREATE OR REPLACE FUNCTION baton_message_text(parts jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(piece, ' '), '')
  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(parts) = 'array' THEN parts ELSE '[]'::jsonb END) AS part,
  LATERAL (
    SELECT part->>'text' AS piece
    WHERE part->>'type' = 'text'
    UNION ALL
    SELECT value #>> '{}'
    FROM jsonb_path_query(part->'output', 'strict $.** ? (@.type() == "string")') AS value
    WHERE (part->>'type' LIKE 'tool-%' OR part->>'type' = 'dynamic-tool')
      AND part->>'type' <> 'tool-search_history'
      AND part ? 'output'
  ) AS pieces
$$;--> statement-breakpoint
ALTER TABLE "agent_profiles" ALTER COLUMN "tools_allow" SET DEFAULT '["list_files","read_file","write_file","edit_file","delete_file","update_plan","search_history"]'::jsonb;--> statement-breakpoint
ALTER TABLE "handoff_revisions" ADD COLUMN "search_tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, left(markdown, 300000))) STORED;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "search_tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, left(baton_message_text(parts), 300000))) STORED;--> statement-breakpoint
ALTER TABLE "workspace_file_versions" ADD COLUMN "search_tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('english'::regconfig, left(path || ' ' || coalesce(content, ''), 300000))) STORED;--> statement-breakpoint
CREATE INDEX "handoff_revisions_search_idx" ON "handoff_revisions" USING gin ("search_tsv");--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin ("search_tsv");--> statement-breakpoint
CREATE INDEX "workspace_file_versions_search_idx" ON "workspace_file_versions" USING gin ("search_tsv");--> statement-breakpoint
-- Profiles that had every built-in tool gain search_history (read-only); a narrowed allow-list stays as it is.
UPDATE "agent_profiles" SET "tools_allow" = "tools_allow" || '["search_history"]'::jsonb WHERE "tools_allow" @> '["list_files","read_file","write_file","edit_file","delete_file","update_plan"]'::jsonb AND NOT ("tools_allow" ? 'search_history');
