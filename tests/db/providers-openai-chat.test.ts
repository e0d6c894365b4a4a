// OpenAI with OPENAI_API_MODE=chat: openai.chat over Chat Completions, with its bearer key.
import {
  chatStructuredSchema,
  chatToolResults,
  startChatCompletionsServer,
} from "../support/protocol/chat-completions";
import { describeProviderOverWire } from "../support/provider-suite";

describeProviderOverWire({
  name: "OpenAI in Chat Completions mode",
  model: "openai:gpt-4.1-mini",
  start: () => startChatCompletionsServer({ apiKey: "sk-test-chat" }),
  env: (server) => ({
    OPENAI_API_KEY: "sk-test-chat",
    OPENAI_BASE_URL: server.url,
    OPENAI_API_MODE: "chat",
    OPENAI_MODELS: "gpt-4.1-mini",
  }),
  structuredSchemaOf: chatStructuredSchema,
  toolResultsOf: chatToolResults,
});
