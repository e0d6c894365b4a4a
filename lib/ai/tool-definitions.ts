// The tool definitions a model call receives for an AI SDK tool set, converted as streamText
// converts them, so the run loop's context estimate counts exactly what the model is sent.
import { asSchema, type ToolSet } from "ai";
import { type ToolDefinition, toolDefinitionTokens } from "./token-count";

/** The tools of `tools` (only `activeTools` when given) as LanguageModelV3 tool definitions. */
export async function toolDefinitionsOf(
  tools: ToolSet,
  activeTools?: readonly string[],
): Promise<ToolDefinition[]> {
  const out: ToolDefinition[] = [];
  for (const [name, tool] of Object.entries(tools)) {
    if (activeTools && !activeTools.includes(name)) continue;
    if (tool.type === "provider") {
      out.push({ type: "provider", name, id: tool.id, args: tool.args });
      continue;
    }
    out.push({
      type: "function",
      name,
      description: tool.description,
      inputSchema: await asSchema(tool.inputSchema).jsonSchema,
    });
  }
  return out;
}

/** toolDefinitionTokens over an AI SDK tool set: the input every step of a run pays for tools. */
export async function toolSetTokens(
  tools: ToolSet,
  modelId: string,
  activeTools?: readonly string[],
): Promise<number> {
  return toolDefinitionTokens(await toolDefinitionsOf(tools, activeTools), modelId);
}
