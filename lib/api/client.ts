// The browser's one way to call Baton's JSON API: `get`, `post`, `patch` and `del` send the
// request, read a refusal's `{error: {code, message, fields?}}` body into one `ApiError`, and
// parse a success with the caller's zod schema, so a changed API fails loudly here instead of
// rendering `undefined`. Browser-safe: no server imports.
import type { z } from "zod";

export type FieldErrors = Record<string, string[]>;

/** A request the server refused (or that never reached it: `status` 0). */
export class ApiError extends Error {
  readonly status: number;
  /** The server's error code (`not_found:thread`, …), or null when the body carried none. */
  readonly code: string | null;
  readonly fields: FieldErrors | undefined;

  constructor(message: string, status: number, code: string | null, fields?: FieldErrors) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fieldErrorsOf(value: unknown): FieldErrors | undefined {
  if (!isRecord(value)) return undefined;
  const fields: FieldErrors = {};
  for (const [key, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) {
      fields[key] = messages.filter((m): m is string => typeof m === "string");
    }
  }
  return fields;
}

/** The error a JSON error body describes, or null when `body` is not one. */
export function errorFromBody(body: unknown, status: number): ApiError | null {
  if (!isRecord(body) || !isRecord(body.error)) return null;
  const { code, message, fields } = body.error;
  if (typeof message !== "string" || message === "") return null;
  return new ApiError(
    message,
    status,
    typeof code === "string" ? code : null,
    fieldErrorsOf(fields),
  );
}

/** Reads a refused response into an ApiError; `fallback` when its body is not a JSON error. */
export async function apiErrorOf(response: Response, fallback?: string): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  return (
    errorFromBody(body, response.status) ??
    new ApiError(fallback ?? `The server answered ${response.status}.`, response.status, null)
  );
}

/**
 * A successful response parsed with `schema`; a refusal thrown as ApiError. A body that does not
 * match the schema throws the ZodError, naming what changed.
 */
export async function parseResponse<S extends z.ZodType>(
  response: Response,
  schema: S,
  fallback?: string,
): Promise<z.output<S>> {
  if (!response.ok) throw await apiErrorOf(response, fallback);
  return schema.parse(await response.json());
}

export interface RequestOptions {
  /** The message of the ApiError thrown when a refusal carries no error body. */
  fallback?: string;
  signal?: AbortSignal;
  /** Statuses that count as done with no body to parse (e.g. 404 for a delete). */
  acceptStatuses?: readonly number[];
}

/** Sends one request; a network failure is an ApiError with status 0. */
async function send(
  method: string,
  url: string,
  body: unknown,
  options: RequestOptions,
): Promise<Response> {
  const init: RequestInit = { method, cache: "no-store", signal: options.signal };
  if (body !== undefined) {
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(body);
  }
  try {
    return await fetch(url, init);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(options.fallback ?? "Could not reach the server.", 0, null);
  }
}

/** One request answered with JSON, parsed with `schema`. */
export async function request<S extends z.ZodType>(
  method: string,
  url: string,
  schema: S,
  { body, ...options }: RequestOptions & { body?: unknown } = {},
): Promise<z.output<S>> {
  const response = await send(method, url, body, options);
  return parseResponse(response, schema, options.fallback);
}

export function get<S extends z.ZodType>(url: string, schema: S, options?: RequestOptions) {
  return request("GET", url, schema, options);
}

export function post<S extends z.ZodType>(
  url: string,
  body: unknown,
  schema: S,
  options?: RequestOptions,
) {
  return request("POST", url, schema, { ...options, body });
}

export function patch<S extends z.ZodType>(
  url: string,
  body: unknown,
  schema: S,
  options?: RequestOptions,
) {
  return request("PATCH", url, schema, { ...options, body });
}

/** A request whose answer has no body worth reading (a delete, a revoke). */
export async function del(url: string, options: RequestOptions = {}): Promise<void> {
  const response = await send("DELETE", url, undefined, options);
  if (response.ok || options.acceptStatuses?.includes(response.status)) return;
  throw await apiErrorOf(response, options.fallback);
}

/**
 * What a failed request shows the user: the server's own words. The AI SDK's chat transport
 * throws the raw response text as the message, so a JSON error body is read out of it too.
 */
export function readableError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  const message = error instanceof Error ? error.message : String(error);
  try {
    const parsed = errorFromBody(JSON.parse(message), 0);
    if (parsed) return parsed.message;
  } catch {
    // Not a JSON error body: the message as it is.
  }
  return message || "Something went wrong.";
}
