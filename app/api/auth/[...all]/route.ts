// Better Auth's endpoints, behind the request policy and Baton's own rate limits (its limiter
// is off): the body is read once, size-limited, and handed on unchanged.

import { BatonError } from "@/core/errors";
import { getAuth } from "@/lib/auth/server";
import { limitAuthRequest, recordAuthOutcome } from "@/lib/http/auth-limits";
import { route } from "@/lib/http/route";

export const GET = route({ auth: "none" }, async ({ request }) =>
  jsonErrors(await getAuth().handler(request)),
);

export const POST = route({ auth: "none", rawBody: true }, async ({ request, rawBody }) => {
  const attempt = await limitAuthRequest(request, rawBody);
  const response = await getAuth().handler(withBody(request, rawBody));
  await recordAuthOutcome(attempt, response);
  return jsonErrors(response);
});

/** Better Auth answers an unknown endpoint with an empty 404; every API error here is JSON. */
function jsonErrors(response: Response): Response {
  const json = response.headers.get("content-type")?.includes("application/json");
  if (response.status === 404 && !json) {
    return new BatonError("not_found:route", "There is no such auth endpoint.").toResponse();
  }
  return response;
}

/** The request again with the body the wrapper already read (a body streams only once). */
function withBody(request: Request, rawBody: string): Request {
  const headers = new Headers(request.headers);
  headers.delete("content-length"); // the text is re-encoded; let the new body set its length
  return new Request(request.url, {
    method: request.method,
    headers,
    body: rawBody === "" ? null : rawBody,
    signal: request.signal,
  });
}
