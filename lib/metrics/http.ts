// Observes every answer of a route() handler: counts it by route pattern, method and status, and
// writes its request record (one JSON line: method, route pattern, status, duration — never the
// raw path, a query or a body). route() wraps its handler with this once, so no route is left out.
import "server-only";
import { type LogLevel, log } from "@/core/log";
import { metrics } from "./registry";
import { type RouteParams, routePattern } from "./route-pattern";

/**
 * Patterns are a closed set in the app; this cap is a safety net should a path ever come through
 * that the params cannot map back (the label would otherwise grow without bound).
 */
const MAX_PATTERNS = 200;
const seen = new Set<string>();

function patternLabel(pattern: string): string {
  if (seen.has(pattern)) return pattern;
  if (seen.size >= MAX_PATTERNS) return "other";
  seen.add(pattern);
  return pattern;
}

/**
 * Asked every few seconds by a container healthcheck, a load balancer or Prometheus: logged at
 * debug while fine, and a 503 (a dependency down, named in the answer) is a warning, not an
 * error per probe — why the dependency failed is logged once per check at warn already.
 */
const PROBES = new Set(["/api/health", "/api/ready", "/api/metrics"]);

function levelOf(route: string, status: number): LogLevel {
  if (PROBES.has(route)) return status === 200 ? "debug" : "warn";
  return status >= 500 ? "error" : "info";
}

type Handler<C> = (request: Request, context?: C) => Promise<Response>;

export function observeRequests<C extends { params: Promise<unknown> }>(
  handler: Handler<C>,
): Handler<C> {
  return async (request, context) => {
    const started = performance.now();
    const response = await handler(request, context);
    try {
      const params = (await Promise.resolve(context?.params).catch(() => undefined)) as
        | RouteParams
        | undefined;
      const route = patternLabel(routePattern(new URL(request.url).pathname, params));
      const { method } = request;
      const status = response.status;
      metrics()
        .httpRequests.labels({ route, method, status: String(status) })
        .inc();
      // Until the handler returned its answer: a streamed body (a chat reply) goes on after.
      const duration_ms = Math.round(performance.now() - started);
      log.record(levelOf(route, status), "request", { method, route, status, duration_ms });
    } catch {
      // Observing never changes an answer.
    }
    return response;
  };
}
