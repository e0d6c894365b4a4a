// OpenAI Chat Completions (POST /chat/completions), as @ai-sdk/openai-compatible and openai.chat
// speak it: `tool_calls` deltas by index, `response_format.json_schema` with the strict rules, and
// usage only in a final chunk with `choices: []`, only when `stream_options.include_usage`.
import type { ServerResponse } from "node:http";
import { checkEnvelope, checkToolName, openaiStatusError, refuse } from "./openai-shared";
import {
  deltas,
  type ExtraRoutes,
  type Protocol,
  type ProtocolServer,
  type RecordedRequest,
  type Refusal,
  type Reply,
  replyText,
  roughUsage,
  type SseEvent,
  sendJson,
  startProtocolServer,
  writeSse,
} from "./server";
import { strictSchemaProblem } from "./strict-schema";

const ROLES = new Set(["system", "developer", "user", "assistant", "tool"]);

// biome-ignore lint/suspicious/noExplicitAny: request bodies are checked field by field here
type Json = any;

function checkMessages(messages: Json): Refusal | null {
  if (messages === undefined) {
    return refuse(400, "Missing required parameter: 'messages'.", {
      param: "messages",
      code: "missing_required_parameter",
    });
  }
  if (!Array.isArray(messages) || messages.length === 0) {
    return refuse(400, "[] is too short - 'messages'", { param: "messages", code: "empty_array" });
  }
  // Calls of the latest assistant message still waiting for their tool messages.
  let open: Set<string> = new Set();
  let openAt = -1;
  for (const [i, message] of messages.entries()) {
    if (!ROLES.has(message?.role)) {
      return refuse(
        400,
        `Invalid value: '${message?.role}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        { param: `messages[${i}].role`, code: "invalid_value" },
      );
    }
    if (message.role === "tool") {
      if (!open.has(message.tool_call_id)) {
        return refuse(
          400,
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          { param: `messages.[${i}].role` },
        );
      }
      open.delete(message.tool_call_id);
      continue;
    }
    if (open.size > 0) {
      return refuse(
        400,
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(", ")}`,
        { param: `messages.[${openAt}].role` },
      );
    }
    if (message.role === "assistant" && Array.isArray(message.tool_calls)) {
      for (const [j, call] of message.tool_calls.entries()) {
        if (typeof call?.function?.arguments !== "string") {
          return refuse(
            400,
            `Invalid type for 'messages[${i}].tool_calls[${j}].function.arguments': expected a string.`,
            {
              param: `messages[${i}].tool_calls[${j}].function.arguments`,
              code: "invalid_type",
            },
          );
        }
      }
      open = new Set(message.tool_calls.map((call: Json) => call.id));
      openAt = i;
    }
  }
  if (open.size > 0) {
    return refuse(
      400,
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(", ")}`,
      { param: `messages.[${openAt}].role` },
    );
  }
  return null;
}

function checkTools(tools: Json): Refusal | null {
  if (tools === undefined) return null;
  for (const [i, tool] of (tools as Json[]).entries()) {
    const named = checkToolName(tool?.function?.name, `tools[${i}].function.name`);
    if (named) return named;
    const schema = tool.function.parameters;
    if (tool.function.strict === true && strictSchemaProblem(schema)) {
      return refuse(
        400,
        `Invalid schema for function '${tool.function.name}': ${strictSchemaProblem(schema)}`,
        { param: `tools[${i}].function.parameters`, code: "invalid_function_parameters" },
      );
    }
  }
  return null;
}

function checkResponseFormat(format: Json): Refusal | null {
  if (format?.type !== "json_schema") return null;
  const spec = format.json_schema;
  if (!spec || typeof spec.name !== "string") {
    return refuse(400, "Missing required parameter: 'response_format.json_schema.name'.", {
      param: "response_format.json_schema.name",
      code: "missing_required_parameter",
    });
  }
  const problem = spec.strict === true ? strictSchemaProblem(spec.schema) : null;
  if (problem) {
    return refuse(400, `Invalid schema for response_format '${spec.name}': ${problem}`, {
      param: "response_format",
    });
  }
  return null;
}

function check(request: RecordedRequest, apiKey: string | undefined): Refusal | null {
  const envelope = checkEnvelope(request, apiKey);
  if (envelope) return envelope;
  const body = request.body;
  if (body.stream_options !== undefined && body.stream !== true) {
    return refuse(400, "The 'stream_options' parameter is only allowed when 'stream' is enabled.", {
      param: "stream_options",
    });
  }
  return (
    checkMessages(body.messages) ??
    checkTools(body.tools) ??
    checkResponseFormat(body.response_format)
  );
}

let seq = 0;

function answer(
  request: RecordedRequest,
  reply: Exclude<Reply, { status: number }>,
  res: ServerResponse,
) {
  const id = `chatcmpl-${++seq}`;
  const created = Math.floor(Date.now() / 1000);
  const model = request.body.model;
  const text = replyText(reply);
  const calls =
    "toolCalls" in reply
      ? reply.toolCalls.map((c, i) => ({ ...c, id: c.id ?? `call_${seq}_${i}` }))
      : [];
  const usage = roughUsage(
    request,
    text + calls.map((c) => c.args).join(""),
    "usage" in reply ? reply.usage : undefined,
  );
  const finish = calls.length > 0 ? "tool_calls" : "stop";
  const usageBody = {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
  };

  if (request.body.stream !== true) {
    sendJson(res, 200, {
      id,
      object: "chat.completion",
      created,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: text === "" && calls.length > 0 ? null : text,
            refusal: null,
            ...(calls.length > 0 && {
              tool_calls: calls.map((c) => ({
                id: c.id,
                type: "function",
                function: { name: c.name, arguments: c.args },
              })),
            }),
          },
          logprobs: null,
          finish_reason: finish,
        },
      ],
      usage: usageBody,
      system_fingerprint: null,
    });
    return;
  }

  const withUsage = request.body.stream_options?.include_usage === true;
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => ({
    data: {
      id,
      object: "chat.completion.chunk",
      created,
      model,
      system_fingerprint: null,
      choices,
      // With include_usage every chunk carries `usage: null` but the last.
      ...(withUsage && { usage: null }),
      ...extra,
    },
  });
  const delta = (d: Record<string, unknown>, finish_reason: string | null = null) =>
    chunk([{ index: 0, delta: d, logprobs: null, finish_reason }]);
  const events: SseEvent[] = [delta({ role: "assistant", content: "", refusal: null })];
  for (const piece of deltas(text)) events.push(delta({ content: piece }));
  if ("cutAfter" in reply) {
    writeSse(res, events, { cut: true });
    return;
  }
  for (const [index, call] of calls.entries()) {
    events.push(
      delta({
        tool_calls: [
          { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
        ],
      }),
    );
    for (const piece of deltas(call.args))
      events.push(delta({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  events.push(delta({}, finish));
  if (withUsage) events.push(chunk([], { usage: usageBody }));
  events.push({ data: "[DONE]" });
  writeSse(res, events);
}

/**
 * A Chat Completions server. `apiKey`: the bearer key it demands (openai.chat sends one;
 * a compatible server may need none).
 */
export function startChatCompletionsServer(
  options: { apiKey?: string; extra?: ExtraRoutes } = {},
): Promise<ProtocolServer> {
  const protocol: Protocol = {
    serves: (method, path) => method === "POST" && path === "/chat/completions",
    check: (request) => check(request, options.apiKey),
    errorBody: openaiStatusError,
    answer,
  };
  return startProtocolServer(protocol, { extra: options.extra });
}

/** The tool results a request sends back, by call id. */
export function chatToolResults(request: RecordedRequest): Map<string, string> {
  const results = new Map<string, string>();
  for (const message of request.body.messages ?? []) {
    if (message.role === "tool") results.set(message.tool_call_id, String(message.content));
  }
  return results;
}

/** The JSON Schema a request asks its answer to follow, if any. */
export function chatStructuredSchema(request: RecordedRequest): unknown {
  const format = request.body.response_format;
  return format?.type === "json_schema" ? format.json_schema?.schema : undefined;
}
