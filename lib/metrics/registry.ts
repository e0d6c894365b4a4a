// Baton's Prometheus metrics: one registry of its own (never prom-client's global default, which
// libraries may also write to), created once per process and kept on globalThis so Next's module
// reloads and the many route bundles all count into the same series. Call sites use the typed
// helpers in ./index.ts, one line each. Labels only ever hold closed sets of values (route
// patterns, outcomes, bucket names): never ids, paths or text someone typed.
import "server-only";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";

function createMetrics(registry: Registry) {
  const registers = [registry];
  return {
    httpRequests: new Counter({
      name: "http_requests_total",
      help: "HTTP requests answered by a route handler, by route pattern, method and status.",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    chatTurns: new Counter({
      name: "chat_turns_total",
      help: "Agent runs started (a chat turn, a resumed approval or a continue).",
      registers,
    }),
    timeToFirstToken: new Histogram({
      name: "time_to_first_token_seconds",
      help: "Seconds from the start of a run to its first streamed text.",
      buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64],
      registers,
    }),
    contextResets: new Counter({
      name: "context_resets_total",
      help: "Context resets by trigger and outcome (committed, busy, cancelled, failed, error).",
      labelNames: ["trigger", "outcome"] as const,
      registers,
    }),
    contextResetDuration: new Histogram({
      name: "context_reset_duration_seconds",
      help: "Seconds a context reset took, whatever its outcome.",
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
      registers,
    }),
    compactions: new Counter({
      name: "compactions_total",
      help: "Sessions compacted (their older part summarized in place).",
      registers,
    }),
    queuedMessages: new Counter({
      name: "queued_messages_total",
      help: "User messages stored queued because a context reset was running.",
      registers,
    }),
    handoffOperations: new Counter({
      name: "handoff_operations_total",
      help: "Handoff API operations by kind (upsert, accept, cancel, groom) and outcome.",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    mcpCalls: new Counter({
      name: "mcp_calls_total",
      help: "MCP tool calls: served by Baton's MCP endpoint, or made by the agent (outbound).",
      labelNames: ["direction"] as const,
      registers,
    }),
    rateLimitRejections: new Counter({
      name: "rate_limit_rejections_total",
      help: "Requests refused with 429 by a rate limit, by bucket.",
      labelNames: ["limit"] as const,
      registers,
    }),
  };
}

export type BatonMetrics = ReturnType<typeof createMetrics>;

const store = globalThis as unknown as {
  batonMetrics?: { registry: Registry; metrics: BatonMetrics };
};

function current() {
  if (!store.batonMetrics) {
    const registry = new Registry();
    // Process memory, CPU, event-loop lag and GC: read at scrape time, no timers of their own.
    collectDefaultMetrics({ register: registry });
    store.batonMetrics = { registry, metrics: createMetrics(registry) };
  }
  return store.batonMetrics;
}

export function metrics(): BatonMetrics {
  return current().metrics;
}

export function metricsRegistry(): Registry {
  return current().registry;
}
