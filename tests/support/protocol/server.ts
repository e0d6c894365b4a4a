// A node:http server speaking one provider's wire protocol, answering a test's script one request
// at a time. A protocol checks each request the way the real API does and answers a broken one
// with the API's own error body; a request beyond the script is a 500 the test will see.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Usage {
  input: number;
  output: number;
}

export interface ToolCallReply {
  name: string;
  /** The arguments exactly as streamed: malformed JSON is a test case. */
  args: string;
  id?: string;
}

/** The text a reply streams (a structured answer's JSON); its tool calls apart. */
export function replyText(reply: Exclude<Reply, { status: number }>): string {
  if ("object" in reply) return JSON.stringify(reply.object);
  if ("cutAfter" in reply) return reply.cutAfter;
  return reply.text ?? "";
}

/** What the scripted model answers; each protocol renders it in its own wire format. */
export type Reply =
  | { text: string; usage?: Usage }
  | { toolCalls: ToolCallReply[]; text?: string; usage?: Usage }
  /** A structured answer, sent the way the protocol carries structured output. */
  | { object: unknown; usage?: Usage }
  /** An HTTP error with the API's error body for `message`. */
  | { status: number; message?: string; headers?: Record<string, string> }
  /** A stream that sends `text` and then loses its connection, with no end. */
  | { cutAfter: string };

export type ScriptStep = Reply | ((request: RecordedRequest) => Reply);

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  // biome-ignore lint/suspicious/noExplicitAny: a request body as the client sent it, read by tests
  body: any;
}

/** A broken rule: the status and the body the real API answers with. */
export interface Refusal {
  status: number;
  body: unknown;
}

export interface Protocol {
  /** Whether this protocol serves the path (others answer 404). */
  serves(method: string, path: string): boolean;
  /** The rule the request breaks, or null when the real API would accept it. */
  check(request: RecordedRequest): Refusal | null;
  /** The API's error body for an HTTP error of the script. */
  errorBody(status: number, message: string): unknown;
  /** Writes the reply: a JSON body, or an event stream when the request asked for one. */
  answer(
    request: RecordedRequest,
    reply: Exclude<Reply, { status: number }>,
    res: ServerResponse,
  ): void;
}

export interface ProtocolServer {
  /** The base URL the provider's SDK is pointed at (with the API's version path). */
  url: string;
  /** Every request to the protocol's paths, refused ones included. */
  requests: RecordedRequest[];
  /** Every refusal sent, so a test can assert no request broke a rule. */
  refusals: Refusal[];
  script(...steps: ScriptStep[]): void;
  /**
   * Answers requests that are not the conversation's (Baton's own bookkeeping calls, such as a
   * new thread's title) outside the script, whenever they arrive; they are kept in `asides`.
   */
  answerAside(pick: (request: RecordedRequest) => Reply | null): void;
  asides: RecordedRequest[];
  /** Script steps not used yet. */
  pending(): number;
  /** Forgets the script, the requests and the refusals (between tests). */
  reset(): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** JSON answers for other paths the server also has (`"POST /api/show"`), as a server's own API. */
export type ExtraRoutes = Record<string, (body: unknown) => unknown>;

export async function startProtocolServer(
  protocol: Protocol,
  { versionPath = "/v1", extra = {} }: { versionPath?: string; extra?: ExtraRoutes } = {},
): Promise<ProtocolServer> {
  const requests: RecordedRequest[] = [];
  const refusals: Refusal[] = [];
  const queue: ScriptStep[] = [];
  const asides: RecordedRequest[] = [];
  let asidePick: (request: RecordedRequest) => Reply | null = () => null;
  const server = createServer(async (req, res) => {
    const text = await readBody(req);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    let body: unknown = text;
    try {
      body = text === "" ? undefined : JSON.parse(text);
    } catch {
      // Left as text: the protocol's check refuses a body that is not JSON.
    }
    const request: RecordedRequest = {
      method: req.method ?? "GET",
      path,
      headers: req.headers,
      body,
    };
    const own = extra[`${request.method} ${path}`];
    if (own) {
      sendJson(res, 200, own(body));
      return;
    }
    if (
      !path.startsWith(versionPath) ||
      !protocol.serves(request.method, path.slice(versionPath.length))
    ) {
      sendJson(res, 404, protocol.errorBody(404, `Unknown request URL: ${request.method} ${path}`));
      return;
    }
    request.path = path.slice(versionPath.length);
    // Only the protocol's own requests: Baton's probes of other paths (server-windows.ts) aside.
    requests.push(request);
    const refusal = protocol.check(request);
    if (refusal) {
      refusals.push(refusal);
      sendJson(res, refusal.status, refusal.body);
      return;
    }
    const aside = asidePick(request);
    if (aside) {
      asides.push(request);
      requests.pop();
      if ("status" in aside) sendJson(res, aside.status, protocol.errorBody(aside.status, "error"));
      else protocol.answer(request, aside, res);
      return;
    }
    const step = queue.shift();
    if (!step) {
      sendJson(res, 500, protocol.errorBody(500, "The test scripted no answer for this request."));
      return;
    }
    try {
      const reply = typeof step === "function" ? step(request) : step;
      if ("status" in reply) {
        const body = protocol.errorBody(reply.status, reply.message ?? "error");
        sendJson(res, reply.status, body, reply.headers);
        return;
      }
      protocol.answer(request, reply, res);
    } catch (error) {
      // A bug in the server itself: answered, so the test fails on it instead of hanging.
      sendJson(res, 500, protocol.errorBody(500, `protocol server: ${String(error)}`));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${versionPath}`,
    requests,
    refusals,
    script: (...steps) => queue.push(...steps),
    answerAside: (pick) => {
      asidePick = pick;
    },
    asides,
    pending: () => queue.length,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      refusals.length = 0;
      asides.length = 0;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface SseEvent {
  event?: string;
  data: unknown;
}

/**
 * Writes an event stream. With `cut`, the connection is destroyed after the events, without the
 * stream's end: what a dropped connection looks like to the client.
 */
export function writeSse(res: ServerResponse, events: SseEvent[], { cut = false } = {}) {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for (const { event, data } of events) {
    const payload = typeof data === "string" ? data : JSON.stringify(data);
    res.write(`${event ? `event: ${event}\n` : ""}data: ${payload}\n\n`);
  }
  if (cut) {
    // Let the events reach the client before the socket goes.
    setTimeout(() => res.socket?.destroy(), 20);
    return;
  }
  res.end();
}

export { sendJson };

/** A stand-in token count when the script gives none: about four characters a token. */
export function roughUsage(request: RecordedRequest, output: string, given?: Usage): Usage {
  return (
    given ?? {
      input: Math.ceil(JSON.stringify(request.body).length / 4),
      output: Math.ceil(output.length / 4) + 1,
    }
  );
}

/** Text split into a few deltas, as a model streams it. */
export function deltas(text: string, parts = 3): string[] {
  if (text.length <= parts) return text === "" ? [] : [text];
  const size = Math.ceil(text.length / parts);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * A script step that reports `factor` × `count(request)` input tokens: a provider whose tokenizer
 * counts `factor` times what `count` (a local count of the received prompt) does. `onReport`
 * hears each figure sent.
 */
export function reportingInput(
  factor: number,
  count: (request: RecordedRequest) => number,
  reply: { text: string; output?: number },
  onReport?: (input: number) => void,
): ScriptStep {
  return (request) => {
    const input = Math.round(factor * count(request));
    onReport?.(input);
    return { text: reply.text, usage: { input, output: reply.output ?? 10 } };
  };
}
