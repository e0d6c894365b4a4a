// The names of the tools an agent can be given, in one place: the tool factories key their
// tools by them, profiles allow them, and the database's default allow-list is the built-in set.
// Plain data, so the schema and the browser can import it.

export const BUILTIN_TOOL_NAMES = [
  "list_files",
  "read_file",
  "write_file",
  "edit_file",
  "delete_file",
  "update_plan",
  "search_history",
  "pin",
] as const;

export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** The transfer tools (lib/agents/transfer); the names are what the model calls. */
export const TRANSFER_TOOL_NAMES = ["handoff_to_agent", "list_agents"] as const;
