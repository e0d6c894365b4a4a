// Counts every answer of a route() handler by route pattern, method and status. route() wraps its
// handler with this once, so no route can be left out.
import "server-only";
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

type Handler<C> = (request: Request, context?: C) => Promise<Response>;

export function countRequests<C extends { params: Promise<unknown> }>(
  handler: Handler<C>,
): Handler<C> {
  return async (request, context) => {
    const response = await handler(request, context);
    try {
      const params = (await Promise.resolve(context?.params).catch(() => undefined)) as
        | RouteParams
        | undefined;
      const route = patternLabel(routePattern(new URL(request.url).pathname, params));
      metrics()
        .httpRequests.labels({ route, method: request.method, status: String(response.status) })
        .inc();
    } catch {
      // Counting never changes an answer.
    }
    return response;
  };
}
