// Anthropic Messages (POST /messages), as @ai-sdk/anthropic speaks it: `tool_use` blocks streamed
// as `input_json_delta`, usage from `message_start` (input) and `message_delta` (output), and
// structured output either natively (`output_config.format`) or through a forced tool, whichever
// the SDK chose for the model. Errors carry Anthropic's `{type: "error", error: {type, message}}`.
import type { ServerResponse } from "node:http";
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

// biome-ignore lint/suspicious/noExplicitAny: request bodies are checked field by field here
type Json = any;

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

export function anthropicError(status: number, message: string) {
  return { type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message } };
}

const refuse = (status: number, message: string): Refusal => ({
  status,
  body: anthropicError(status, message),
});

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

function checkMessages(messages: Json): Refusal | null {
  if (!Array.isArray(messages)) return refuse(400, "messages: Field required");
  for (const [i, message] of messages.entries()) {
    if (message?.role !== "user" && message?.role !== "assistant") {
      return refuse(400, `messages.${i}.role: Input should be 'user' or 'assistant'`);
    }
    const blocks = typeof message.content === "string" ? [] : (message.content as Json[]);
    for (const [j, block] of blocks.entries()) {
      if (block?.type === "text" && (typeof block.text !== "string" || block.text === "")) {
        return refuse(400, "messages: text content blocks must be non-empty");
      }
      if (block?.type === "tool_use") {
        if (message.role !== "assistant") {
          return refuse(
            400,
            `messages.${i}.content.${j}: tool_use blocks can only be in assistant messages`,
          );
        }
        if (block.input === null || typeof block.input !== "object" || Array.isArray(block.input)) {
          return refuse(
            400,
            `messages.${i}.content.${j}.tool_use.input: Input should be a valid dictionary`,
          );
        }
      }
    }
    // Every tool_use is answered by a tool_result in the very next message, and only those.
    const uses = blocks.filter((b) => b?.type === "tool_use").map((b) => b.id as string);
    const previous = messages[i - 1];
    const previousUses =
      previous && Array.isArray(previous.content)
        ? previous.content.filter((b: Json) => b?.type === "tool_use").map((b: Json) => b.id)
        : [];
    for (const [j, block] of blocks.entries()) {
      if (block?.type === "tool_result" && !previousUses.includes(block.tool_use_id)) {
        return refuse(
          400,
          `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${block.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
    }
    if (uses.length > 0) {
      const next = messages[i + 1];
      const results = Array.isArray(next?.content)
        ? next.content
            .filter((b: Json) => b?.type === "tool_result")
            .map((b: Json) => b.tool_use_id)
        : [];
      const missing = uses.filter((id) => !results.includes(id));
      if (missing.length > 0) {
        return refuse(
          400,
          `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
  }
  return null;
}

function checkTools(tools: Json, toolChoice: Json): Refusal | null {
  const names = new Set<string>();
  for (const [i, tool] of ((tools ?? []) as Json[]).entries()) {
    if (!TOOL_NAME.test(tool?.name ?? "")) {
      return refuse(
        400,
        `tools.${i}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`,
      );
    }
    if (tool.input_schema?.type !== "object") {
      return refuse(400, `tools.${i}.custom.input_schema.type: Input should be 'object'`);
    }
    names.add(tool.name);
  }
  if (toolChoice?.type === "tool" && !names.has(toolChoice.name)) {
    return refuse(400, `tool_choice.name: Tool '${toolChoice.name}' not found in provided tools`);
  }
  return null;
}

/** Native structured output takes closed objects only. */
function openObjectPath(node: Json, path: string): string | null {
  if (node === null || typeof node !== "object") return null;
  if ((node.type === "object" || node.properties) && node.additionalProperties !== false)
    return path;
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    const found = openObjectPath(child, `${path}.properties.${key}`);
    if (found) return found;
  }
  for (const key of ["items", "anyOf", "oneOf", "allOf"]) {
    const value = node[key];
    const children = Array.isArray(value) ? value : value ? [value] : [];
    for (const [i, child] of children.entries()) {
      const found = openObjectPath(child, `${path}.${key}${Array.isArray(value) ? `.${i}` : ""}`);
      if (found) return found;
    }
  }
  return null;
}

function checkOutputFormat(config: Json): Refusal | null {
  const format = config?.format;
  if (format === undefined) return null;
  if (format.type !== "json_schema" || format.schema?.type !== "object") {
    return refuse(400, "output_config.format.schema: the schema must be an object schema");
  }
  const open = openObjectPath(format.schema, "schema");
  if (open) {
    return refuse(
      400,
      `output_config.format.${open}: For 'object' type, 'additionalProperties' must be explicitly set to false`,
    );
  }
  return null;
}

function check(request: RecordedRequest, apiKey: string): Refusal | null {
  const key = request.headers["x-api-key"];
  if (!key) return refuse(401, "x-api-key header is required");
  if (key !== apiKey) return refuse(401, "invalid x-api-key");
  if (!request.headers["anthropic-version"]) {
    return refuse(400, "anthropic-version: header is required");
  }
  const body = request.body;
  if (body === null || typeof body !== "object")
    return refuse(400, "The request body is not valid JSON.");
  if (typeof body.model !== "string") return refuse(400, "model: Field required");
  if (typeof body.max_tokens !== "number") return refuse(400, "max_tokens: Field required");
  return (
    checkMessages(body.messages) ??
    checkTools(body.tools, body.tool_choice) ??
    checkOutputFormat(body.output_config)
  );
}

let seq = 0;

/**
 * The tool a request forces the model to call: named by `tool_choice: {type: "tool"}`, or the
 * only tool offered under `{type: "any"}` (how the SDK asks for JSON without native output).
 */
function forcedTool(body: Json): string | undefined {
  const choice = body.tool_choice;
  if (choice?.type === "tool") return choice.name;
  if (choice?.type === "any" && body.tools?.length === 1) return body.tools[0].name;
  return undefined;
}

type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; args: string };

function blocksOf(request: RecordedRequest, reply: Exclude<Reply, { status: number }>): Block[] {
  const body = request.body;
  // A structured answer goes where the SDK asked for it: the format's text, or the forced tool.
  const forced = forcedTool(body);
  if ("object" in reply && body.output_config?.format === undefined && forced) {
    return [
      { type: "tool_use", id: `toolu_${++seq}`, name: forced, args: JSON.stringify(reply.object) },
    ];
  }
  const text = replyText(reply);
  const blocks: Block[] = text === "" ? [] : [{ type: "text", text }];
  if ("toolCalls" in reply) {
    for (const call of reply.toolCalls) {
      blocks.push({
        type: "tool_use",
        id: call.id ?? `toolu_${++seq}`,
        name: call.name,
        args: call.args,
      });
    }
  }
  return blocks;
}

function answer(
  request: RecordedRequest,
  reply: Exclude<Reply, { status: number }>,
  res: ServerResponse,
) {
  const id = `msg_${++seq}`;
  const model = request.body.model;
  const blocks = blocksOf(request, reply);
  const usage = roughUsage(
    request,
    blocks.map((b) => (b.type === "text" ? b.text : b.args)).join(""),
    "usage" in reply ? reply.usage : undefined,
  );
  const stop = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  if (request.body.stream !== true) {
    sendJson(res, 200, {
      id,
      type: "message",
      role: "assistant",
      model,
      content: blocks.map((b) =>
        b.type === "text"
          ? b
          : { type: "tool_use", id: b.id, name: b.name, input: JSON.parse(b.args) },
      ),
      stop_reason: stop,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: usage.output,
      },
    });
    return;
  }
  const event = (type: string, data: Record<string, unknown>): SseEvent => ({
    event: type,
    data: { type, ...data },
  });
  const events: SseEvent[] = [
    event("message_start", {
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
        },
      },
    }),
    event("ping", {}),
  ];
  for (const [index, block] of blocks.entries()) {
    if (block.type === "text") {
      events.push(
        event("content_block_start", { index, content_block: { type: "text", text: "" } }),
      );
      for (const piece of deltas(block.text)) {
        events.push(
          event("content_block_delta", { index, delta: { type: "text_delta", text: piece } }),
        );
      }
      if ("cutAfter" in reply) {
        writeSse(res, events, { cut: true });
        return;
      }
    } else {
      events.push(
        event("content_block_start", {
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        }),
      );
      events.push(
        event("content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: "" },
        }),
      );
      for (const piece of deltas(block.args)) {
        events.push(
          event("content_block_delta", {
            index,
            delta: { type: "input_json_delta", partial_json: piece },
          }),
        );
      }
    }
    events.push(event("content_block_stop", { index }));
  }
  events.push(
    event("message_delta", {
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: usage.output },
    }),
  );
  events.push(event("message_stop", {}));
  writeSse(res, events);
}

/** A Messages server demanding `apiKey` in x-api-key. */
export function startAnthropicServer(options: { apiKey: string }): Promise<ProtocolServer> {
  const protocol: Protocol = {
    serves: (method, path) => method === "POST" && path === "/messages",
    check: (request) => check(request, options.apiKey),
    errorBody: anthropicError,
    answer,
  };
  return startProtocolServer(protocol);
}

/** The tool results a request sends back, by tool_use id. */
export function anthropicToolResults(request: RecordedRequest): Map<string, string> {
  const results = new Map<string, string>();
  for (const message of request.body.messages ?? []) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block?.type === "tool_result")
        results.set(block.tool_use_id, JSON.stringify(block.content));
    }
  }
  return results;
}

/** The JSON Schema a request asks its answer to follow: the native format's, or the forced tool's. */
export function anthropicStructuredSchema(request: RecordedRequest): unknown {
  const body = request.body;
  if (body.output_config?.format?.type === "json_schema") return body.output_config.format.schema;
  const forced = forcedTool(body);
  if (forced) return (body.tools ?? []).find((t: Json) => t.name === forced)?.input_schema;
  return undefined;
}
