// The one wrapper every route handler goes through, in this order: same-origin check of
// state-changing requests that carry cookies → authenticate → JSON content type → rate limit →
// read and parse the body, query and path params with the route's zod schemas → handler → one
// error map. A handler holds only its own logic, and a route cannot forget a check. See
// docs/security.md.
import { z } from "zod";
import { BatonError, errorResponse, type FieldErrors, fieldErrorsOf } from "@/core/errors";
import { databaseUnavailableCode } from "@/db/retry";
import { type Actor, requireActor } from "@/lib/auth/server";
import {
  type ApiIdentity,
  type ApiScope,
  requireScope,
  resolveApiIdentity,
} from "@/lib/handoff-api/identity";
import { observeRequests } from "@/lib/metrics";
import { DEFAULT_MAX_BODY_BYTES, parseJsonText, readBodyText, unstorableText } from "./body";
import { consumeRateLimit, type RateBucket } from "./rate-limit";
import {
  assertJsonContentType,
  assertSameOrigin,
  isCookielessBearer,
  isStateChanging,
} from "./request-policy";

/**
 * Who may call: `none` (public, or the route authenticates itself, like Better Auth), `session`
 * (a browser session; tokens cannot), `api:<scope>` (a session or a bearer token with the scope),
 * `token` (a bearer token only: MCP).
 */
export type RouteAuth = "none" | "session" | `api:${ApiScope}` | "token";

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteOptions<
  A extends RouteAuth,
  B extends Schema | undefined,
  Q extends Schema | undefined,
  P extends Schema | undefined,
> {
  auth: A;
  /** The JSON body's schema; an empty body reaches it as `undefined`. */
  body?: B;
  /**
   * Hands the handler the body as text (size-limited) for libraries that parse it themselves
   * (MCP, Better Auth); it is still refused when it is not JSON or holds unstorable text.
   */
  rawBody?: boolean;
  query?: Q;
  params?: P;
  /** The error for path params that do not parse (default 400 `bad_request:path`). */
  paramsError?: (fields: FieldErrors) => BatonError;
  rateLimit?: RateBucket;
  /** Default DEFAULT_MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /** `WWW-Authenticate` value sent with a 401 (bearer-token APIs). */
  authChallenge?: string;
}

export interface RouteContext<A extends RouteAuth, B, Q, P> {
  request: Request;
  /** The browser session's user (auth `session`, or `api:*` called with a session). */
  actor: A extends "session" ? Actor : Actor | null;
  /** The API caller (auth `api:*` and `token`). */
  identity: A extends `api:${string}` | "token" ? ApiIdentity : null;
  body: B;
  rawBody: string;
  query: Q;
  params: P;
}

// What Next passes; the params schema decides what the values must be.
type NextContext = { params: Promise<unknown> };

/** Marks a handler as built by `route()`; a test checks every exported route handler has it. */
export const ROUTE_BRAND: unique symbol = Symbol.for("baton.route");

export type RouteHandler = ((request: Request, context?: NextContext) => Promise<Response>) & {
  [ROUTE_BRAND]: RouteAuth;
};

interface Caller {
  actor: Actor | null;
  identity: ApiIdentity | null;
  /** The rate-limit key of an authenticated caller. */
  key: string | null;
}

async function authenticate(request: Request, auth: RouteAuth): Promise<Caller> {
  if (auth === "none") return { actor: null, identity: null, key: null };
  if (auth === "session") {
    const actor = await requireActor(request);
    return { actor, identity: null, key: `user:${actor.id}` };
  }
  if (auth === "token") {
    const identity = await resolveApiIdentity(request, { allowSession: false });
    return { actor: null, identity, key: identity.createdBy };
  }
  const identity = await resolveApiIdentity(request);
  requireScope(identity, auth.slice("api:".length) as ApiScope);
  const actor = identity.via === "session" ? await requireActor(request).catch(() => null) : null;
  return { actor, identity, key: identity.createdBy };
}

/**
 * Forgery rides on ambient credentials, so a state-changing request that carries cookies must
 * come from the app's own origin — checked before anything else, so a forged request learns
 * nothing, not even whether its cookie is valid. Public routes (sign-in) are checked even
 * without cookies: a forged sign-in would plant the attacker's session in the victim's browser.
 * Bearer-token clients without cookies are exempt: a browser cannot forge that header.
 */
function assertOrigin(request: Request, auth: RouteAuth): void {
  if (!isStateChanging(request.method) || isCookielessBearer(request)) return;
  if (request.headers.has("cookie") || auth === "none") assertSameOrigin(request);
}

function parseWith<S extends Schema | undefined>(
  schema: S,
  value: unknown,
  onError: (fields: Record<string, string[]>) => BatonError,
): Out<S> {
  if (schema === undefined) return undefined as Out<S>;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw onError(fieldErrorsOf(parsed.error));
  return parsed.data as Out<S>;
}

/**
 * A database still unreachable after the one retry on a fresh connection (db/retry.ts) is a 503
 * the caller can retry, not a 500; nothing of the failed query (its SQL or values) is logged.
 */
function databaseUnavailable(error: unknown): BatonError | null {
  if (error instanceof BatonError || !databaseUnavailableCode(error)) return null;
  return new BatonError(
    "unavailable:database",
    "The database is unavailable right now. Try again in a few seconds.",
    undefined,
    { "Retry-After": "2" },
  );
}

function invalid(fields: Record<string, string[]>): BatonError {
  return new BatonError("bad_request:body", "The request is invalid.", fields);
}

function queryOf(request: Request): Record<string, string> {
  const query = Object.fromEntries(new URL(request.url).searchParams);
  const problems = unstorableText(query, "");
  if (problems) throw invalid(problems);
  return query;
}

/** A JSON body that may be left out entirely: an empty body reads as `{}`. */
export function optionalBody<S extends Schema>(schema: S) {
  return z.preprocess((value) => value ?? {}, schema);
}

export function route<
  A extends RouteAuth,
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(
  options: RouteOptions<A, B, Q, P>,
  handler: (context: RouteContext<A, Out<B>, Out<Q>, Out<P>>) => Promise<Response>,
): RouteHandler {
  const wrapped = async (request: Request, context?: NextContext): Promise<Response> => {
    try {
      assertOrigin(request, options.auth);
      const caller = await authenticate(request, options.auth);
      if (isStateChanging(request.method)) assertJsonContentType(request);
      if (options.rateLimit && caller.key) await consumeRateLimit(options.rateLimit, caller.key);
      const params = parseWith(options.params as P, await context?.params, (fields) =>
        options.paramsError
          ? options.paramsError(fields)
          : new BatonError("bad_request:path", "The path is invalid.", fields),
      );
      const query = parseWith(options.query as Q, queryOf(request), invalid);
      const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      const hasBody = options.body !== undefined || options.rawBody === true;
      const rawBody = hasBody ? await readBodyText(request, maxBytes) : "";
      // A raw body is still JSON (the content-type check above): its text is checked too.
      const parsedJson = parseJsonText(rawBody);
      const body = options.rawBody ? undefined : parseWith(options.body as B, parsedJson, invalid);
      // authenticate() guarantees what the auth mode promises (see RouteContext).
      const response = await handler({
        request,
        actor: caller.actor as RouteContext<A, unknown, unknown, unknown>["actor"],
        identity: caller.identity as RouteContext<A, unknown, unknown, unknown>["identity"],
        body: body as Out<B>,
        rawBody,
        query,
        params,
      });
      if (caller.key !== null && !response.headers.has("cache-control")) {
        // Answers to an authenticated caller carry their data: never cache them.
        response.headers.set("cache-control", "no-store");
      }
      return response;
    } catch (error) {
      const response = errorResponse(databaseUnavailable(error) ?? error);
      if (response.status === 401 && options.authChallenge) {
        response.headers.set("www-authenticate", options.authChallenge);
      }
      return response;
    }
  };
  return Object.assign(observeRequests(wrapped), { [ROUTE_BRAND]: options.auth });
}
