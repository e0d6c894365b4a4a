// A profile's allow-list entries for outside MCP tools, as the Agents form edits them:
// `mcp:<server>/*` allows every tool of a server, `mcp:<server>/<tool>` one tool. Pure list
// edits that leave every other entry (built-in tools, other servers) where it was.

import { parseMcpAllow } from "@/core/mcp-tool-names";

const MCP_ALLOW_PREFIX = "mcp:";

export function mcpAllowAll(server: string): string {
  return `${MCP_ALLOW_PREFIX}${server}/*`;
}

export function mcpAllowTool(server: string, tool: string): string {
  return `${MCP_ALLOW_PREFIX}${server}/${tool}`;
}

const ofServer = (entry: string, server: string) => parseMcpAllow(entry)?.slug === server;

/**
 * Allows every tool of `server` (its single-tool entries become redundant and are dropped), or
 * takes that back, leaving no entry of the server.
 */
export function setMcpServerAll(allow: readonly string[], server: string, on: boolean): string[] {
  const rest = allow.filter((entry) => !ofServer(entry, server));
  return on ? [...rest, mcpAllowAll(server)] : rest;
}

/** Allows one tool of `server`, or takes it back. */
export function setMcpTool(
  allow: readonly string[],
  server: string,
  tool: string,
  on: boolean,
): string[] {
  const entry = mcpAllowTool(server, tool);
  const rest = allow.filter((e) => e !== entry);
  return on ? [...rest, entry] : rest;
}

/**
 * Turns one built-in tool on or off: the built-in entries stay in `builtinNames` order and every
 * other entry (MCP tools) is kept after them.
 */
export function setBuiltinTool(
  allow: readonly string[],
  builtinNames: readonly string[],
  tool: string,
  on: boolean,
): string[] {
  const chosen = new Set(allow.filter((e) => e !== tool));
  if (on) chosen.add(tool);
  const builtins = builtinNames.filter((name) => chosen.has(name));
  const others = allow.filter((e) => !builtinNames.includes(e));
  return [...builtins, ...others];
}

/** MCP entries that name a server not in `servers`, or a tool the server did not list. */
export function unknownMcpEntries(
  allow: readonly string[],
  servers: readonly { slug: string; tools: readonly { name: string }[] }[],
): string[] {
  return allow.filter((entry) => {
    const parsed = parseMcpAllow(entry);
    if (!parsed) return false;
    const server = servers.find((s) => s.slug === parsed.slug);
    if (!server) return true;
    return parsed.tool !== "*" && !server.tools.some((t) => t.name === parsed.tool);
  });
}
