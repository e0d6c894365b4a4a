// An MCP tool result as the model reads it: its content as text (images, audio and binary
// resources described, not sent), `{ ok: true, content }`, or `{ ok: false, error }` when the
// server marked it an error. Pure.
import type { ToolFailure } from "./context";

export interface McpToolOutput {
  ok: true;
  content: string;
}

type Block = Record<string, unknown> & { type?: unknown };

/** Decoded size of base64 text. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

const str = (value: unknown) => (typeof value === "string" ? value : "");

function describeResource(resource: Record<string, unknown>): string {
  const uri = str(resource.uri) || "(no uri)";
  if (typeof resource.text === "string") return `[resource: ${uri}]\n${resource.text}`;
  const mime = str(resource.mimeType) || "application/octet-stream";
  return `[resource: ${uri}, ${mime}, ${base64Bytes(str(resource.blob))} bytes]`;
}

function blockText(block: Block): string {
  switch (block.type) {
    case "text":
      return str(block.text);
    case "image":
    case "audio":
      return `[${block.type}: ${str(block.mimeType) || "unknown type"}, ${base64Bytes(str(block.data))} bytes]`;
    case "resource":
      return block.resource && typeof block.resource === "object"
        ? describeResource(block.resource as Record<string, unknown>)
        : "[resource]";
    case "resource_link": {
      const name = str(block.name);
      return `[resource link: ${str(block.uri)}${name ? ` (${name})` : ""}]`;
    }
    default:
      return `[${typeof block.type === "string" ? block.type : "unknown"} content]`;
  }
}

/** The text of a tools/call result (content blocks, else structured content, else legacy). */
function mcpResultText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? (result.content as Block[]) : [];
  if (content.length > 0) return content.map(blockText).join("\n");
  if (result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  if (result.toolResult !== undefined) return JSON.stringify(result.toolResult);
  return "";
}

export function mcpToolOutput(result: Record<string, unknown>): McpToolOutput | ToolFailure {
  const text = mcpResultText(result);
  if (result.isError === true) {
    return { ok: false, error: text.trim() || "The tool reported an error." };
  }
  return { ok: true, content: text };
}
