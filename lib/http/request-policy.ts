// The request policy for state-changing requests: they must come from one of the app's own
// origins and carry JSON. A page on another port or a sibling subdomain is "same-site" and gets
// the victim's cookies, so same-site is exactly what must be refused. See docs/security.md.

import { serverEnv } from "@/core/env";
import { BatonError } from "@/core/errors";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function isStateChanging(method: string): boolean {
  return STATE_CHANGING.has(method.toUpperCase());
}

const LOCAL_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/** Host names (with or without port) the app answers on without a fixed public URL. */
function isKnownHost(host: string): boolean {
  if (LOCAL_HOST.test(host)) return true;
  const allowed = serverEnv().BATON_ALLOWED_HOSTS ?? [];
  const bare = host.replace(/:\d+$/, "");
  return allowed.some((entry) => entry === host || entry === bare);
}

/**
 * The origins a same-origin request may carry: BETTER_AUTH_URL and BATON_PUBLIC_ORIGINS when set;
 * without BETTER_AUTH_URL also the origin the request was addressed to, if its host is local or
 * listed in BATON_ALLOWED_HOSTS (so `localhost:3000` works with no configuration).
 */
function appOrigins(request: Request): string[] {
  const env = serverEnv();
  const origins = new Set<string>(env.BATON_PUBLIC_ORIGINS ?? []);
  if (env.BETTER_AUTH_URL) {
    origins.add(new URL(env.BETTER_AUTH_URL).origin);
    return [...origins];
  }
  const host = request.headers.get("host");
  if (host && isKnownHost(host)) {
    const protocol = new URL(request.url).protocol;
    origins.add(`${protocol}//${host}`);
    // Behind a TLS-terminating proxy the request reaches us as http.
    if (!LOCAL_HOST.test(host)) origins.add(`https://${host}`);
  }
  return [...origins];
}

function forbidden(): BatonError {
  return new BatonError(
    "forbidden:origin",
    "This request did not come from Baton's own pages, so it was refused.",
  );
}

/** A browser request from one of the app's origins (Origin, else Sec-Fetch-Site). */
export function assertSameOrigin(request: Request): void {
  const origin = request.headers.get("origin");
  if (origin !== null) {
    if (!appOrigins(request).includes(origin)) throw forbidden();
    return;
  }
  if (request.headers.get("sec-fetch-site") !== "same-origin") throw forbidden();
}

/** Bearer-token clients send no cookies; a forged browser request cannot set Authorization. */
export function isCookielessBearer(request: Request): boolean {
  return (
    /^Bearer\s/i.test(request.headers.get("authorization") ?? "") && !request.headers.has("cookie")
  );
}

/**
 * Whether the request says it has a body. Next hands handlers a body stream even for a bodiless
 * DELETE, so the stream itself proves nothing; a body the headers do not announce cannot be
 * sent by a browser form, and the size limit still applies to whatever arrives.
 */
function announcesBody(request: Request): boolean {
  const length = request.headers.get("content-length");
  if (length !== null) return Number(length) > 0;
  return request.headers.has("transfer-encoding");
}

/** A state-changing request with a body must declare it JSON (forms cannot). */
export function assertJsonContentType(request: Request): void {
  const type = request.headers.get("content-type");
  if (type === null && !announcesBody(request)) return;
  const mime = type?.split(";")[0]?.trim().toLowerCase();
  if (mime !== "application/json") {
    throw new BatonError(
      "unsupported_media_type:body",
      "Send the request body as application/json.",
    );
  }
}
