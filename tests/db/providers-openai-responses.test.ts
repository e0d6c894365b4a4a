// OpenAI over the Responses API (the default OPENAI_API_MODE), through @ai-sdk/openai.
import {
  responsesStructuredSchema,
  responsesToolResults,
  startResponsesServer,
} from "../support/protocol/responses";
import { describeProviderOverWire } from "../support/provider-suite";

describeProviderOverWire({
  name: "OpenAI over the Responses API",
  model: "openai:gpt-4.1-mini",
  start: () => startResponsesServer({ apiKey: "sk-test-responses" }),
  env: (server) => ({
    OPENAI_API_KEY: "sk-test-responses",
    OPENAI_BASE_URL: server.url,
    OPENAI_API_MODE: "responses",
    OPENAI_MODELS: "gpt-4.1-mini",
  }),
  structuredSchemaOf: responsesStructuredSchema,
  toolResultsOf: responsesToolResults,
});
