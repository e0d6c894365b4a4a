// The one error type routes return: a closed union of codes mapped to HTTP status here, and a
// mapper that turns zod errors into 400s with field errors and anything unknown into a 500.
import { ZodError } from "zod";
import { log } from "./log";

const STATUS = {
  "bad_request:body": 400,
  "bad_request:json": 400,
  "bad_request:api": 400,
  "bad_request:key": 400,
  "bad_request:cursor": 400,
  "bad_request:path": 400,
  "payload_too_large:message": 413,
  "payload_too_large:body": 413,
  "unsupported_media_type:body": 415,
  "unauthorized:session": 401,
  "unauthorized:token": 401,
  "forbidden:scope": 403,
  "forbidden:guest": 403,
  "forbidden:origin": 403,
  "not_found:route": 404,
  "not_found:thread": 404,
  "not_found:message": 404,
  "not_found:handoff": 404,
  "not_found:session": 404,
  "not_found:share": 404,
  "not_found:token": 404,
  "not_found:file": 404,
  "not_found:profile": 404,
  "not_found:run": 404,
  "not_found:pin": 404,
  "not_found:tool_server": 404,
  "conflict:stale_revision": 409,
  "conflict:message": 409,
  "conflict:reset_committed": 409,
  "conflict:reset_in_progress": 409,
  "conflict:reset_awaiting_review": 409,
  "conflict:no_draft": 409,
  "conflict:draft_too_large": 409,
  "conflict:handoff_cancelled": 409,
  "conflict:thread_handoff": 409,
  "conflict:thread_exists": 409,
  "conflict:approval": 409,
  "conflict:profile_exists": 409,
  "conflict:profile_in_use": 409,
  "conflict:tool_server_exists": 409,
  "rate_limited:requests": 429,
  "unavailable:model": 503,
  "unavailable:database": 503,
  "internal:server": 500,
  "forbidden:builtin_profile": 403,
} as const;

export type ErrorCode = keyof typeof STATUS;

export type FieldErrors = Record<string, string[]>;

export class BatonError extends Error {
  readonly code: ErrorCode;
  readonly fields?: FieldErrors;
  /** Extra response headers, e.g. `Retry-After` on a 429. */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    fields?: FieldErrors,
    headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "BatonError";
    this.code = code;
    this.fields = fields;
    this.headers = headers;
  }

  get status(): number {
    return STATUS[this.code];
  }

  toJSON() {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fields ? { fields: this.fields } : {}),
      },
    };
  }

  toResponse(): Response {
    return Response.json(this.toJSON(), {
      status: this.status,
      headers: { "cache-control": "no-store", ...this.headers },
    });
  }
}

/** An unknown key of a strict object is reported under its own name, like any other field. */
export function fieldErrorsOf(error: ZodError): FieldErrors {
  const fields: FieldErrors = {};
  const add = (path: PropertyKey[], message: string) => {
    const key = path.length > 0 ? path.map(String).join(".") : "(body)";
    fields[key] ??= [];
    fields[key].push(message);
  };
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const name of issue.keys) add([...issue.path, name], "This field is not allowed.");
    } else {
      add(issue.path, issue.message);
    }
  }
  return fields;
}

/** Any thrown value → a Response; details of unknown errors are logged, never returned. */
export function errorResponse(error: unknown): Response {
  if (error instanceof BatonError) return error.toResponse();
  if (error instanceof ZodError) {
    return new BatonError(
      "bad_request:body",
      "The request is invalid.",
      fieldErrorsOf(error),
    ).toResponse();
  }
  log.error("unexpected error", error);
  return new BatonError("internal:server", "Something went wrong on our side.").toResponse();
}
