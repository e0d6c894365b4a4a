// What Baton does with every HTTP request before Next.js sees it, installed once at start-up on
// the process's HTTP servers:
// - stamps the request with its socket's address under a header name that is random per process
//   (Next hands route handlers no socket, and the X-Forwarded-For it passes on may be whatever
//   the client wrote; a client cannot guess the name, and any copy it sends is overwritten);
// - answers a path with malformed percent-encoding (`/api/handoffs/%C0%AF`), which Next's router
//   fails on with a plain-text 500 before any route or page runs: a route handler's path (the API,
//   the share view's API) gets a JSON 400 with the API's headers, a page path the not-found page.
import "server-only";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { BatonError } from "@/core/errors";
import { STATIC_CONTENT_SECURITY_POLICY, STATIC_HEADERS } from "./security-headers";

const holder = globalThis as unknown as { batonPeerHeader?: string };

/** Paths answered by route handlers (JSON): the API and the share view's own API. */
const ROUTE_PATH = /^\/(api(\/|$|\?)|share\/[^/?]+\/[^?])/;

/** A path no route or page matches, so Next renders its not-found page (with a 404). */
export const MALFORMED_PAGE_PATH = "/_baton/malformed-path";

/** Whether every segment of the URL's path decodes (the query is decoded leniently by Next). */
export function hasWellFormedPath(url: string): boolean {
  const path = url.split("?")[0] ?? "";
  try {
    for (const segment of path.split("/")) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

function refuseMalformedApiPath(response: http.ServerResponse): void {
  const body = JSON.stringify(
    new BatonError("bad_request:path", "The path is not valid percent-encoded UTF-8.").toJSON(),
  );
  response.writeHead(400, {
    "content-type": "application/json",
    "cache-control": "no-store",
    "content-security-policy": STATIC_CONTENT_SECURITY_POLICY,
    ...Object.fromEntries(STATIC_HEADERS.map((h) => [h.key.toLowerCase(), h.value])),
  });
  response.end(body);
}

/** Installs the stamp and the path guard on every HTTP server of this process (once). */
export function installFrontDoor(): void {
  if (holder.batonPeerHeader) return;
  const header = `x-baton-peer-${randomBytes(12).toString("hex")}`;
  holder.batonPeerHeader = header;
  const emit = http.Server.prototype.emit as (
    event: string | symbol,
    ...args: unknown[]
  ) => boolean;
  http.Server.prototype.emit = function frontDoor(
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ) {
    if (event === "request") {
      const request = args[0] as http.IncomingMessage;
      request.headers[header] = request.socket.remoteAddress ?? "";
      if (request.url && !hasWellFormedPath(request.url)) {
        if (ROUTE_PATH.test(request.url)) {
          refuseMalformedApiPath(args[1] as http.ServerResponse);
          return true;
        }
        request.url = MALFORMED_PAGE_PATH;
      }
    }
    return emit.call(this, event, ...args);
  } as typeof http.Server.prototype.emit;
}

/** The socket address of a request, or null where no stamp was installed (tests, other hosts). */
export function peerAddress(request: Request): string | null {
  const name = holder.batonPeerHeader;
  return name ? request.headers.get(name) || null : null;
}
