// The names MCP tools go by: on the server (what `mcp:<slug>/<tool>` in a profile's allow-list
// names) and in a model call (`mcp__<slug>__<tool>`, within the charset and length providers
// accept). Plain data and pure functions, so the profile schema and the browser can use them.
/** A remote tool's name as a profile can allow it (MCP's recommended charset). */
export const REMOTE_TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;

/** `mcp:<slug>/<tool>` or `mcp:<slug>/*`. */
export const MCP_ALLOW_PATTERN = /^mcp:([a-z0-9][a-z0-9-]{0,31})\/(\*|[A-Za-z0-9_.-]{1,128})$/;

export const MCP_TOOL_PREFIX = "mcp__";
const MAX_NAME = 64;

export interface McpAllow {
  slug: string;
  /** A tool name, or `*` for every tool of the server. */
  tool: string;
}

export function parseMcpAllow(entry: string): McpAllow | null {
  const match = MCP_ALLOW_PATTERN.exec(entry);
  return match?.[1] && match[2] ? { slug: match[1], tool: match[2] } : null;
}

export function isMcpAllowed(allow: readonly string[], slug: string, tool: string): boolean {
  return allow.some((entry) => {
    const parsed = parseMcpAllow(entry);
    return parsed?.slug === slug && (parsed.tool === "*" || parsed.tool === tool);
  });
}

/** Six hex digits of FNV-1a over `text`: enough to tell apart names that clean up alike. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0").slice(0, 6);
}

/**
 * The model-facing names of `tools` (each `{slug, tool}`), in order: `mcp__<slug>__<tool>` with
 * characters outside [a-zA-Z0-9_-] replaced by `_`, cut to 64 characters; a name that is too
 * long or taken by an earlier tool ends in a short hash of the original instead.
 */
export function mcpToolNames(tools: readonly { slug: string; tool: string }[]): string[] {
  const taken = new Set<string>();
  return tools.map(({ slug, tool }) => {
    const original = `${MCP_TOOL_PREFIX}${slug}__${tool}`;
    const clean = original.replace(/[^a-zA-Z0-9_-]/g, "_");
    let name =
      clean.length <= MAX_NAME ? clean : `${clean.slice(0, MAX_NAME - 7)}_${shortHash(original)}`;
    if (taken.has(name)) name = `${clean.slice(0, MAX_NAME - 7)}_${shortHash(original)}`;
    taken.add(name);
    return name;
  });
}
