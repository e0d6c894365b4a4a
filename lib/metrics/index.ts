// The typed helpers call sites use, one line each. See ./registry.ts for the series themselves.
import "server-only";
import { BatonError } from "@/core/errors";
import { type LogLevel, log } from "@/core/log";
import { metrics } from "./registry";

export { observeRequests } from "./http";

export type HandoffOperation = "upsert" | "accept" | "cancel" | "groom";
export type RateLimitName = "signIn" | "signUp" | "guest" | "chat" | "api";

/** Counts a run starting; `firstText()` records its time to first token, once. */
export function startChatTurn(): { firstText: () => void } {
  metrics().chatTurns.inc();
  const stop = metrics().timeToFirstToken.startTimer();
  let seen = false;
  return {
    firstText: () => {
      if (seen) return;
      seen = true;
      stop();
    },
  };
}

/** A reset that ended without a new session is worth a look; one that threw, an alarm. */
const RESET_LEVELS: Record<string, LogLevel> = { failed: "warn", error: "error" };

/**
 * Times and counts one reset, and writes its record (one JSON line: trigger, outcome, duration);
 * its outcome is the result's `kind`, or `error` if it threw.
 */
export async function timeReset<R extends { kind: string }>(
  trigger: string,
  reset: () => Promise<R>,
): Promise<R> {
  const started = performance.now();
  let outcome = "error";
  try {
    const result = await reset();
    outcome = result.kind;
    return result;
  } finally {
    const seconds = (performance.now() - started) / 1000;
    metrics().contextResetDuration.observe(seconds);
    metrics().contextResets.labels({ trigger, outcome }).inc();
    log.record(RESET_LEVELS[outcome] ?? "info", "context_reset", {
      trigger,
      outcome,
      duration_ms: Math.round(seconds * 1000),
    });
  }
}

export function countCompaction(): void {
  metrics().compactions.inc();
}

export function countQueuedMessage(): void {
  metrics().queuedMessages.inc();
}

/**
 * Counts one handoff API operation by what it settled to: `outcome(result)` on success, `stale`
 * for a `conflict:stale_revision`, another error's code kind (`not_found`, `conflict`, …) else.
 */
export async function countHandoff<T>(
  kind: HandoffOperation,
  operation: Promise<T>,
  outcome: (result: T) => string = () => "ok",
): Promise<T> {
  try {
    const result = await operation;
    metrics()
      .handoffOperations.labels({ kind, outcome: outcome(result) })
      .inc();
    return result;
  } catch (error) {
    metrics()
      .handoffOperations.labels({ kind, outcome: failureOf(error) })
      .inc();
    throw error;
  }
}

function failureOf(error: unknown): string {
  if (!(error instanceof BatonError)) return "error";
  if (error.code === "conflict:stale_revision") return "stale";
  return error.code.split(":")[0] ?? "error";
}

export function countMcpCall(direction: "served" | "outbound"): void {
  metrics().mcpCalls.labels({ direction }).inc();
}

export function countRateLimitRejection(limit: RateLimitName): void {
  metrics().rateLimitRejections.labels({ limit }).inc();
}
