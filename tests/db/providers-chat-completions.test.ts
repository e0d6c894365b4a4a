// An OpenAI-compatible server (Ollama, vLLM, llama.cpp…) over Chat Completions, through
// @ai-sdk/openai-compatible.

import { startChatCompletionsServer } from "../support/protocol/chat-completions";
import type { RecordedRequest } from "../support/protocol/server";
import { describeProviderOverWire } from "../support/provider-suite";

export function chatToolResults(request: RecordedRequest): Map<string, string> {
  const results = new Map<string, string>();
  for (const message of request.body.messages ?? []) {
    if (message.role === "tool") results.set(message.tool_call_id, String(message.content));
  }
  return results;
}

export function chatStructuredSchema(request: RecordedRequest): unknown {
  const format = request.body.response_format;
  return format?.type === "json_schema" ? format.json_schema?.schema : undefined;
}

describeProviderOverWire({
  name: "An OpenAI-compatible server",
  model: "compatible:tiny",
  start: () => startChatCompletionsServer(),
  env: (server) => ({
    OPENAI_COMPATIBLE_BASE_URL: server.url,
    OPENAI_COMPATIBLE_MODELS: "tiny",
  }),
  structuredSchemaOf: chatStructuredSchema,
  toolResultsOf: chatToolResults,
});
