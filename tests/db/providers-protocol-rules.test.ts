// The protocol servers refuse what the real APIs refuse, with their error bodies, so the provider
// suites' "no request was refused" can fail. Also: the stored artifact schema, sent as structured
// output, is refused by OpenAI's strict mode — the failure the provider-facing schema removes.
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, generateText, Output } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { startAnthropicServer } from "../support/protocol/anthropic";
import { startChatCompletionsServer } from "../support/protocol/chat-completions";
import { startResponsesServer } from "../support/protocol/responses";
import type { ProtocolServer } from "../support/protocol/server";

let chat: ProtocolServer;
let responses: ProtocolServer;
let anthropic: ProtocolServer;

beforeAll(async () => {
  [chat, responses, anthropic] = await Promise.all([
    startChatCompletionsServer({ apiKey: "k" }),
    startResponsesServer({ apiKey: "k" }),
    startAnthropicServer({ apiKey: "k" }),
  ]);
});

afterAll(async () => {
  await Promise.all([chat, responses, anthropic].map((s) => s?.close()));
});

async function post(server: ProtocolServer, path: string, body: unknown, headers = {}) {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer k", ...headers },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: an API's error body, read field by field below
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const looseSchema = {
  type: "object",
  properties: { goal: { type: "string" }, next_step: { type: "string" } },
  required: ["goal"],
  additionalProperties: false,
};

describe("the Chat Completions server", () => {
  it("refuses a tool message that answers no call", async () => {
    const { status, body } = await post(chat, "/chat/completions", {
      model: "m",
      messages: [
        { role: "user", content: "hi" },
        { role: "tool", tool_call_id: "call_1", content: "x" },
      ],
    });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ type: "invalid_request_error", param: "messages.[1].role" });
    expect(body.error.message).toContain(
      "must be a response to a preceeding message with 'tool_calls'",
    );
  });

  it("refuses a strict response_format with an optional property", async () => {
    const { status, body } = await post(chat, "/chat/completions", {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      response_format: {
        type: "json_schema",
        json_schema: { name: "response", strict: true, schema: looseSchema },
      },
    });
    expect(status).toBe(400);
    expect(body.error.message).toBe(
      "Invalid schema for response_format 'response': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'next_step'.",
    );
  });

  it("refuses a request without the bearer key", async () => {
    const { status, body } = await post(chat, "/chat/completions", {}, { authorization: "" });
    expect(status).toBe(401);
    expect(body.error.message).toContain("You didn't provide an API key");
  });
});

describe("the Responses server", () => {
  it("refuses a call without its output, and an output without its call", async () => {
    const call = { type: "function_call", call_id: "call_1", name: "f", arguments: "{}" };
    const unanswered = await post(responses, "/responses", {
      model: "m",
      input: [{ role: "user", content: "hi" }, call],
    });
    expect(unanswered.status).toBe(400);
    expect(unanswered.body.error.message).toBe("No tool output found for function call call_1.");
    const orphan = await post(responses, "/responses", {
      model: "m",
      input: [{ type: "function_call_output", call_id: "call_9", output: "x" }],
    });
    expect(orphan.body.error.message).toBe(
      "No tool call found for function call output with call_id call_9.",
    );
  });

  it("refuses a reference to an item it never stored", async () => {
    const { status, body } = await post(responses, "/responses", {
      model: "m",
      input: [{ type: "item_reference", id: "msg_unknown" }],
    });
    expect(status).toBe(404);
    expect(body.error.message).toBe("Item with id 'msg_unknown' not found.");
  });

  it("refuses the stored artifact schema as strict structured output, through the SDK", async () => {
    const model = createOpenAI({ apiKey: "k", baseURL: responses.url }).responses("gpt-4.1");
    const caught = await generateText({
      model,
      prompt: "write the handoff",
      output: Output.object({ schema: handoffArtifactSchema }),
      maxRetries: 0,
    }).catch((error: unknown) => error);
    expect(APICallError.isInstance(caught)).toBe(true);
    const error = caught as APICallError;
    expect(error.statusCode).toBe(400);
    expect(error.message).toMatch(/^Invalid schema for response_format 'response'.*Missing/);
    expect(JSON.parse(error.responseBody ?? "{}").error).toMatchObject({
      param: "text.format.schema",
      code: "invalid_json_schema",
    });
  });
});

describe("the Anthropic server", () => {
  const headers = { "x-api-key": "k", "anthropic-version": "2023-06-01" };

  it("refuses a tool_use without a tool_result right after", async () => {
    const { status, body } = await post(
      anthropic,
      "/messages",
      {
        model: "claude-sonnet-4-5",
        max_tokens: 100,
        messages: [
          { role: "user", content: "hi" },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "toolu_1", name: "f", input: {} }],
          },
          { role: "user", content: [{ type: "text", text: "and?" }] },
        ],
      },
      headers,
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(body.error.message).toContain(
      "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1",
    );
  });

  it("refuses tool input that is not an object, and a missing key", async () => {
    const bad = await post(
      anthropic,
      "/messages",
      {
        model: "claude-sonnet-4-5",
        max_tokens: 100,
        messages: [
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "toolu_1", name: "f", input: '{"a":' }],
          },
        ],
      },
      headers,
    );
    expect(bad.body.error.message).toBe(
      "messages.0.content.0.tool_use.input: Input should be a valid dictionary",
    );
    const unauthenticated = await post(anthropic, "/messages", {}, {});
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body.error.type).toBe("authentication_error");
  });
});
