// What a Messages request holds, counted with Baton's own local tokenizer: the body turned back
// into the prompt and tool definitions a model call is made of, then estimated the way the app
// estimates a call. A server that reports k × this count plays a provider whose tokenizer counts
// k times what the local estimate does.
import type {
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
} from "@ai-sdk/provider";
import { estimatePromptTokens, toolDefinitionTokens } from "@/lib/ai/token-count";
import type { RecordedRequest } from "./server";

// biome-ignore lint/suspicious/noExplicitAny: request bodies are read field by field here
type Json = any;

type Part = Exclude<LanguageModelV3Message["content"], string>[number];

function textOf(content: Json): string {
  if (typeof content === "string") return content;
  return ((content ?? []) as Json[])
    .map((block) => (block?.type === "text" ? String(block.text) : JSON.stringify(block)))
    .join("\n");
}

function partsOf(blocks: Json, toolNames: Map<string, string>): Part[] {
  if (typeof blocks === "string") return [{ type: "text", text: blocks }];
  return ((blocks ?? []) as Json[]).map((block): Part => {
    if (block?.type === "tool_use") {
      toolNames.set(block.id, block.name);
      return { type: "tool-call", toolCallId: block.id, toolName: block.name, input: block.input };
    }
    if (block?.type === "tool_result") {
      return {
        type: "tool-result",
        toolCallId: block.tool_use_id,
        toolName: toolNames.get(block.tool_use_id) ?? "",
        output: { type: "text", value: textOf(block.content) },
      };
    }
    if (block?.type === "text") return { type: "text", text: String(block.text) };
    return { type: "text", text: JSON.stringify(block) };
  });
}

/** The request's prompt (system, messages) as a model call's prompt. */
export function anthropicPrompt(body: Json): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  if (body.system !== undefined) prompt.push({ role: "system", content: textOf(body.system) });
  const toolNames = new Map<string, string>();
  for (const message of (body.messages ?? []) as Json[]) {
    const content = partsOf(message.content, toolNames);
    prompt.push(
      message.role === "assistant"
        ? ({ role: "assistant", content } as LanguageModelV3Message)
        : ({ role: "user", content } as LanguageModelV3Message),
    );
  }
  return prompt;
}

/** The request's input as Baton's local tokenizer for `modelId` counts it, tools included. */
export function anthropicLocalInputTokens(request: RecordedRequest, modelId: string): number {
  const tools: LanguageModelV3FunctionTool[] = ((request.body.tools ?? []) as Json[]).map((t) => ({
    type: "function",
    name: t.name,
    description: t.description,
    inputSchema: t.input_schema,
  }));
  return (
    estimatePromptTokens(anthropicPrompt(request.body), modelId) +
    toolDefinitionTokens(tools, modelId)
  );
}
