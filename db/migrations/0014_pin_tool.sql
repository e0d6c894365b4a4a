ALTER TABLE "agent_profiles" ALTER COLUMN "tools_allow" SET DEFAULT '["list_files","read_file","write_file","edit_file","delete_file","update_plan","search_history","pin"]'::jsonb;--> statement-breakpoint
-- Profiles that allow every built-in tool get the new pin tool too; hand-picked lists stay as they are.
UPDATE "agent_profiles" SET "tools_allow" = "tools_allow" || '["pin"]'::jsonb
WHERE "tools_allow" @> '["list_files","read_file","write_file","edit_file","delete_file","update_plan","search_history"]'::jsonb
  AND NOT ("tools_allow" ? 'pin');
