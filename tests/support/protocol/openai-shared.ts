// OpenAI's error bodies (Chat Completions and Responses answer errors the same way), and the
// request shape rules both APIs share.
import type { RecordedRequest, Refusal } from "./server";

export function openaiError(
  message: string,
  { type = "invalid_request_error", param = null, code = null }: OpenAIErrorFields = {},
) {
  return { error: { message, type, param, code } };
}

interface OpenAIErrorFields {
  type?: string;
  param?: string | null;
  code?: string | null;
}

export function openaiStatusError(status: number, message: string) {
  if (status === 429) {
    return openaiError(message, { type: "requests", code: "rate_limit_exceeded" });
  }
  if (status === 401) return openaiError(message, { code: "invalid_api_key" });
  if (status >= 500) {
    return openaiError(message, { type: "server_error" });
  }
  return openaiError(message);
}

export function refuse(status: number, message: string, fields: OpenAIErrorFields = {}): Refusal {
  return { status, body: openaiError(message, fields) };
}

/** The checks before the body's own: a JSON object, a bearer key when one is set, a model. */
export function checkEnvelope(
  request: RecordedRequest,
  apiKey: string | undefined,
): Refusal | null {
  if (apiKey !== undefined) {
    const auth = request.headers.authorization;
    if (!auth) {
      return refuse(
        401,
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      );
    }
    if (auth !== `Bearer ${apiKey}`) {
      return refuse(401, "Incorrect API key provided.", { code: "invalid_api_key" });
    }
  }
  const body = request.body;
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return refuse(
      400,
      "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)",
    );
  }
  if (typeof body.model !== "string" || body.model === "") {
    return refuse(400, "you must provide a model parameter");
  }
  return null;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function checkToolName(name: unknown, param: string): Refusal | null {
  if (typeof name === "string" && TOOL_NAME.test(name)) return null;
  return refuse(
    400,
    `Invalid '${param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
    { param, code: "invalid_value" },
  );
}
