// OpenAI Responses (POST /responses), as @ai-sdk/openai's default model speaks it: SSE events
// (`response.output_text.delta`, function-call items and argument deltas), usage only in
// `response.completed`, `text.format` json_schema under the strict rules, and stored items: a
// later request may name an earlier output by `item_reference`, which must exist.
import type { ServerResponse } from "node:http";
import { checkEnvelope, checkToolName, openaiStatusError, refuse } from "./openai-shared";
import {
  deltas,
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

// biome-ignore lint/suspicious/noExplicitAny: request bodies are checked field by field here
type Json = any;

function checkInput(input: Json, stored: Set<string>): Refusal | null {
  if (input === undefined) return null;
  if (!Array.isArray(input)) return null;
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const item of input) {
    if (item?.type === "item_reference") {
      if (!stored.has(item.id)) {
        return refuse(404, `Item with id '${item.id}' not found.`, { param: "input" });
      }
      continue;
    }
    if (item?.type === "function_call") calls.add(item.call_id);
    if (item?.type === "function_call_output") {
      if (!calls.has(item.call_id)) {
        return refuse(
          400,
          `No tool call found for function call output with call_id ${item.call_id}.`,
          {
            param: "input",
          },
        );
      }
      if (typeof item.output !== "string" && !Array.isArray(item.output)) {
        return refuse(400, "Invalid type for 'input[].output': expected a string.", {
          param: "input",
          code: "invalid_type",
        });
      }
      answered.add(item.call_id);
    }
  }
  const unanswered = [...calls].find((id) => !answered.has(id));
  if (unanswered)
    return refuse(400, `No tool output found for function call ${unanswered}.`, { param: "input" });
  return null;
}

function checkTools(tools: Json): Refusal | null {
  if (tools === undefined) return null;
  for (const [i, tool] of (tools as Json[]).entries()) {
    if (tool?.type !== "function") continue;
    const named = checkToolName(tool.name, `tools[${i}].name`);
    if (named) return named;
    const problem = tool.strict === true ? strictSchemaProblem(tool.parameters) : null;
    if (problem) {
      return refuse(400, `Invalid schema for function '${tool.name}': ${problem}`, {
        param: `tools[${i}].parameters`,
        code: "invalid_function_parameters",
      });
    }
  }
  return null;
}

function checkFormat(format: Json): Refusal | null {
  if (format?.type !== "json_schema") return null;
  if (typeof format.name !== "string") {
    return refuse(400, "Missing required parameter: 'text.format.name'.", {
      param: "text.format.name",
      code: "missing_required_parameter",
    });
  }
  const problem = format.strict === true ? strictSchemaProblem(format.schema) : null;
  if (problem) {
    return refuse(400, `Invalid schema for response_format '${format.name}': ${problem}`, {
      param: "text.format.schema",
      code: "invalid_json_schema",
    });
  }
  return null;
}

let seq = 0;
const nextId = (prefix: string) => `${prefix}_${(++seq).toString(16).padStart(8, "0")}`;

function answer(
  request: RecordedRequest,
  reply: Exclude<Reply, { status: number }>,
  res: ServerResponse,
  stored: Set<string>,
) {
  const id = nextId("resp");
  const created_at = Math.floor(Date.now() / 1000);
  const model = request.body.model;
  const text = replyText(reply);
  const calls = "toolCalls" in reply ? reply.toolCalls : [];
  const usage = roughUsage(
    request,
    text + calls.map((c) => c.args).join(""),
    "usage" in reply ? reply.usage : undefined,
  );
  const message = text === "" ? null : { id: nextId("msg"), text };
  const functionCalls = calls.map((c) => ({
    id: nextId("fc"),
    call_id: c.id ?? nextId("call"),
    name: c.name,
    args: c.args,
  }));
  const messageItem = (status: string, content: unknown[]) => ({
    id: message?.id,
    type: "message",
    status,
    role: "assistant",
    content,
  });
  const outputText = { type: "output_text", text, annotations: [], logprobs: [] };
  const callItem = (call: (typeof functionCalls)[number], status: string, args: string) => ({
    id: call.id,
    type: "function_call",
    status,
    arguments: args,
    call_id: call.call_id,
    name: call.name,
  });
  const output = [
    ...(message ? [messageItem("completed", [outputText])] : []),
    ...functionCalls.map((c) => callItem(c, "completed", c.args)),
  ];
  const usageBody = {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.input + usage.output,
  };
  const response = (status: string, extra: Record<string, unknown>) => ({
    id,
    object: "response",
    created_at,
    status,
    error: null,
    incomplete_details: null,
    model,
    output: [],
    parallel_tool_calls: true,
    store: request.body.store !== false,
    usage: null,
    ...extra,
  });
  // Stored (store defaults to true): later requests may reference these items.
  if (request.body.store !== false && !("cutAfter" in reply)) {
    for (const item of output) if (item.id) stored.add(item.id);
  }

  if (request.body.stream !== true) {
    sendJson(res, 200, response("completed", { output, usage: usageBody }));
    return;
  }
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>): SseEvent => ({
    event: type,
    data: { type, sequence_number: sequence++, ...data },
  });
  const events: SseEvent[] = [
    event("response.created", { response: response("in_progress", {}) }),
    event("response.in_progress", { response: response("in_progress", {}) }),
  ];
  let index = 0;
  if (message) {
    const at = { item_id: message.id, output_index: index, content_index: 0 };
    events.push(
      event("response.output_item.added", {
        output_index: index,
        item: messageItem("in_progress", []),
      }),
    );
    events.push(
      event("response.content_part.added", {
        ...at,
        part: { type: "output_text", text: "", annotations: [] },
      }),
    );
    for (const piece of deltas(text))
      events.push(event("response.output_text.delta", { ...at, delta: piece, logprobs: [] }));
    if ("cutAfter" in reply) {
      writeSse(res, events, { cut: true });
      return;
    }
    events.push(event("response.output_text.done", { ...at, text, logprobs: [] }));
    events.push(event("response.content_part.done", { ...at, part: outputText }));
    events.push(
      event("response.output_item.done", {
        output_index: index,
        item: messageItem("completed", [outputText]),
      }),
    );
    index++;
  }
  for (const call of functionCalls) {
    const at = { item_id: call.id, output_index: index };
    events.push(
      event("response.output_item.added", {
        output_index: index,
        item: callItem(call, "in_progress", ""),
      }),
    );
    for (const piece of deltas(call.args))
      events.push(event("response.function_call_arguments.delta", { ...at, delta: piece }));
    events.push(event("response.function_call_arguments.done", { ...at, arguments: call.args }));
    events.push(
      event("response.output_item.done", {
        output_index: index,
        item: callItem(call, "completed", call.args),
      }),
    );
    index++;
  }
  events.push(
    event("response.completed", { response: response("completed", { output, usage: usageBody }) }),
  );
  writeSse(res, events);
}

/** A Responses server demanding `apiKey` as its bearer key. */
export function startResponsesServer(options: { apiKey: string }): Promise<ProtocolServer> {
  const stored = new Set<string>();
  const protocol: Protocol = {
    serves: (method, path) => method === "POST" && path === "/responses",
    check: (request) =>
      checkEnvelope(request, options.apiKey) ??
      checkInput(request.body.input, stored) ??
      checkTools(request.body.tools) ??
      checkFormat(request.body.text?.format),
    errorBody: openaiStatusError,
    answer: (request, reply, res) => answer(request, reply, res, stored),
  };
  return startProtocolServer(protocol);
}

/** The tool results a request sends back, by call id. */
export function responsesToolResults(request: RecordedRequest): Map<string, string> {
  const results = new Map<string, string>();
  for (const item of request.body.input ?? []) {
    if (item?.type === "function_call_output")
      results.set(item.call_id, JSON.stringify(item.output));
  }
  return results;
}

/** The JSON Schema a request asks its answer to follow, if any. */
export function responsesStructuredSchema(request: RecordedRequest): unknown {
  const format = request.body.text?.format;
  return format?.type === "json_schema" ? format.schema : undefined;
}
