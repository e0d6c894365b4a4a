// The fetch the MCP transport is given: it reaches a tool server only on public addresses. Each
// request resolves the host (every address it has), refuses it when any address is loopback,
// private, link-local, unique-local, CGNAT or unspecified (lib/connections/addresses.ts) unless
// the host is in BATON_MCP_ALLOWED_HOSTS, and then connects to exactly the addresses it checked
// (the socket's lookup answers them), so a name cannot resolve to a public address for the check
// and to a private one for the connection. Redirects are followed here, at most three, each hop
// checked like the first. See docs/connections.md.
import "server-only";
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { Readable } from "node:stream";
import { serverEnv } from "@/core/env";
import { addressRefusal, bareHost, isAllowedHost } from "./addresses";
import { ToolServerError } from "./errors";

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Resolves a host name to every address it has (dns.lookup with `all`). */
type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

export interface GuardOptions {
  /** Hosts reachable on any address (default BATON_MCP_ALLOWED_HOSTS). */
  allowedHosts?: readonly string[];
  /** How host names resolve (default the system resolver); tests inject their own. */
  lookup?: HostLookup;
}

const MAX_REDIRECTS = 3;

const systemLookup: HostLookup = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

/**
 * The addresses `url` may be connected to, or a ToolServerError saying why not. An allowed host
 * is resolved normally (null: no pinning needed).
 */
export async function checkTarget(
  url: URL,
  options: GuardOptions = {},
): Promise<LookupAddress[] | null> {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ToolServerError(`refused: ${url.protocol} is not http or https`);
  }
  const allowed = options.allowedHosts ?? serverEnv().BATON_MCP_ALLOWED_HOSTS ?? [];
  if (isAllowedHost(url, allowed)) return null;
  const host = bareHost(url.hostname);
  if (isIP(host)) {
    const reason = addressRefusal(host);
    if (reason) throw new ToolServerError(`refused: ${host} is ${reason}`);
    return [{ address: host, family: isIP(host) }];
  }
  let addresses: LookupAddress[];
  try {
    addresses = await (options.lookup ?? systemLookup)(host);
  } catch {
    throw new ToolServerError(`could not resolve ${host}`);
  }
  if (addresses.length === 0) throw new ToolServerError(`could not resolve ${host}`);
  for (const { address } of addresses) {
    const reason = addressRefusal(address);
    if (reason) throw new ToolServerError(`refused: ${host} resolves to ${address}, ${reason}`);
  }
  return addresses;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A socket lookup that answers only the checked addresses. */
function pinnedLookup(addresses: LookupAddress[]) {
  return (_hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    callback(null, first?.address ?? "", first?.family);
  };
}

function bodyOf(body: RequestInit["body"]): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  throw new ToolServerError("unsupported request body");
}

/** One HTTP exchange, on the pinned addresses when given; the response body streams. */
function send(url: URL, init: RequestInit, addresses: LookupAddress[] | null): Promise<Response> {
  const headers = new Headers(init.headers);
  const body = bodyOf(init.body);
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: init.method ?? "GET",
        headers: Object.fromEntries(headers),
        signal: init.signal ?? undefined,
        // A connection of its own each time: a pooled socket would skip the address check.
        agent: false,
        ...(addresses ? { lookup: pinnedLookup(addresses) as never } : {}),
      },
      (incoming) => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(incoming.headers)) {
          if (value === undefined) continue;
          for (const item of Array.isArray(value) ? value : [value])
            responseHeaders.append(name, item);
        }
        const status = incoming.statusCode ?? 502;
        const empty = status === 204 || status === 304 || init.method === "HEAD";
        if (empty) incoming.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), {
            status,
            statusText: incoming.statusMessage,
            headers: responseHeaders,
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A fetch that reaches only addresses `checkTarget` accepts, redirects included. */
export function guardedFetch(options: GuardOptions = {}): FetchLike {
  return async (input, init = {}) => {
    let url = new URL(input);
    let current: RequestInit = { ...init };
    for (let hop = 0; ; hop++) {
      const addresses = await checkTarget(url, options);
      const response = await send(url, current, addresses);
      const location = response.headers.get("location");
      if (!REDIRECTS.has(response.status) || !location) return response;
      await response.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) {
        throw new ToolServerError(`refused: more than ${MAX_REDIRECTS} redirects`);
      }
      const next = new URL(location, url);
      current = redirected(current, response.status, url, next);
      url = next;
    }
  };
}

/** The request to send after a redirect: 303 (and 301/302 of a POST) become a GET. */
function redirected(init: RequestInit, status: number, from: URL, to: URL): RequestInit {
  const headers = new Headers(init.headers);
  // Credentials go only where they were meant for.
  if (from.origin !== to.origin) headers.delete("authorization");
  const method = (init.method ?? "GET").toUpperCase();
  if (status === 303 || ((status === 301 || status === 302) && method === "POST")) {
    headers.delete("content-type");
    return { ...init, method: "GET", body: undefined, headers };
  }
  return { ...init, headers };
}
