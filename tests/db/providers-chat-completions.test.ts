// An OpenAI-compatible server (Ollama, vLLM, llama.cpp…) over Chat Completions, through
// @ai-sdk/openai-compatible.
import {
  chatStructuredSchema,
  chatToolResults,
  startChatCompletionsServer,
} from "../support/protocol/chat-completions";
import { describeProviderOverWire } from "../support/provider-suite";

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
