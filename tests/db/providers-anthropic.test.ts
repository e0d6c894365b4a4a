// Anthropic over the Messages API, through @ai-sdk/anthropic. Claude Sonnet 4.5 takes native
// structured output (output_config.format), which the strict handoff schema makes possible: the
// stored schema's many optional fields sent the SDK to the forced-tool path instead. A model
// without native structured output still writes its handoff through the forced tool.
import { expect } from "vitest";
import {
  anthropicStructuredSchema,
  anthropicToolResults,
  startAnthropicServer,
} from "../support/protocol/anthropic";
import { describeProviderOverWire } from "../support/provider-suite";

const anthropic = {
  start: () => startAnthropicServer({ apiKey: "sk-ant-test" }),
  structuredSchemaOf: anthropicStructuredSchema,
  toolResultsOf: anthropicToolResults,
};

describeProviderOverWire({
  ...anthropic,
  name: "Anthropic",
  model: "anthropic:claude-sonnet-4-5",
  env: (server) => ({
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_MODELS: "claude-sonnet-4-5",
  }),
  checkHandoffRequest: (request) => {
    expect(request.body.output_config?.format?.type).toBe("json_schema");
    expect(request.body.tool_choice).toBeUndefined();
  },
});

describeProviderOverWire({
  ...anthropic,
  name: "Anthropic without native structured output",
  model: "anthropic:claude-sonnet-4-20250514",
  env: (server) => ({
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_MODELS: "claude-sonnet-4-20250514",
  }),
  checkHandoffRequest: (request) => {
    expect(request.body.output_config?.format).toBeUndefined();
    expect(request.body.tool_choice).toMatchObject({ type: "any" });
    expect(request.body.tools.map((t: { name: string }) => t.name)).toEqual(["json"]);
  },
  cases: ["reset"],
});
