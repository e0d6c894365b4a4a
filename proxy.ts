// Pages get a Content-Security-Policy with a fresh script nonce on every request. Next reads the
// nonce from the request's CSP header while rendering and puts it on its own script tags, so
// every page renders per request (app/layout.tsx makes sure of that). The other security headers
// come from next.config.ts for every path; see lib/http/security-headers.ts.
import { type NextRequest, NextResponse } from "next/server";
import { serverEnv } from "@/core/env";
import { createNonce, pageContentSecurityPolicy } from "@/lib/http/security-headers";

export function proxy(request: NextRequest) {
  const policy = pageContentSecurityPolicy({
    nonce: createNonce(),
    dev: serverEnv().NODE_ENV === "development",
  });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

export const config = {
  // Pages only. Route handlers (/api/**, and everything below /share/<token>/) stay out: with a
  // proxy in front Next buffers each request body before the handler runs, and the route wrapper
  // must be able to refuse an oversized body unread. Their headers come from next.config.ts
  // (NON_PAGE_SOURCES in lib/http/security-headers.ts; a unit test checks every page and route
  // file of app/ against both). Next's static files need no CSP.
  matcher: ["/((?!api(?:/|$)|_next/static/|_next/image(?:/|$)|share/[^/]+/.).*)"],
};
