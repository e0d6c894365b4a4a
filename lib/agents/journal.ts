// The run journal (docs/journal.md): what happened in a run, in order — which agent handled
// which stretch, its tool calls, approvals, transfers and resets. The run loop records events
// through a RunJournal; each payload is redacted and capped (./journal-payload.ts) first.
import "server-only";
import { log } from "@/core/log";
import { type Database, getDb } from "@/db/client";
import { appendRunEvent } from "@/db/queries/run-events";
import type { RunEvent } from "@/db/schema";
import { cappedPayload } from "./journal-payload";

const RUN_EVENT_TYPES = [
  "agent_handoff_requested",
  "agent_invocation_created",
  "agent_handoff_accepted",
  "agent_handoff_denied",
  "agent_invocation_transferred",
  "agent_invocation_started",
  "context_assembled",
  "tool_call",
  "tool_result",
  "approval_requested",
  "approval_resolved",
  "reset_started",
  "reset_awaiting_review",
  "reset_committed",
  "reset_failed",
  "agent_invocation_completed",
  "run_completed",
  "run_failed",
] as const;

export type RunEventType = (typeof RUN_EVENT_TYPES)[number];

/** The invocation an event belongs to: the agent (profile slug) and its stretch of the run. */
export interface EventAuthor {
  agent: string;
  invocationId: string;
}

export interface RunScope {
  userId: string;
  threadId: string;
  runId: string;
}

export class RunJournal {
  private readonly scope: RunScope;
  private readonly db: Database | undefined;
  /** The last write: each one starts after it, so events keep the order they were recorded in. */
  private tail: Promise<unknown> = Promise.resolve();
  /** Opens a held journal (see `hold`); null when writes are not held. */
  private opener: (() => void) | null = null;

  /** `db`: the client to write with (the process's own by default). */
  constructor(scope: RunScope, db?: Database) {
    this.scope = scope;
    this.db = db;
  }

  /**
   * Stores the event as the run's next. The payload is capped and redacted now, so a caller may
   * reuse the object afterwards. Resolves with the stored row, or null when it was not stored
   * (the run is not the user's in that thread, or the write failed — logged): the journal
   * describes a run and never fails one.
   */
  record(type: RunEventType, payload: Record<string, unknown> = {}, who?: EventAuthor) {
    const input = {
      ...this.scope,
      type,
      agent: who?.agent ?? null,
      invocationId: who?.invocationId ?? null,
      payload: cappedPayload(payload),
    };
    const write = this.tail.then(() => appendRunEvent(this.db ?? getDb(), input));
    this.tail = write.catch(() => undefined);
    return write.catch((error: unknown): RunEvent | null => {
      log.warn("run journal: an event was not stored", error, { type, runId: input.runId });
      return null;
    });
  }

  /**
   * Holds the writes recorded from now on until `release()`, or `maxMs` at the latest: a run
   * records its start before its first token, and those writes must not queue ahead of the
   * statements the first token waits for (PGlite runs one statement at a time). Order is kept.
   */
  hold(maxMs: number): void {
    if (this.opener) return;
    const gate = new Promise<void>((resolve) => {
      this.opener = resolve;
    });
    const timer = setTimeout(() => this.release(), maxMs);
    timer.unref?.();
    const before = this.tail;
    this.tail = gate.then(() => {
      clearTimeout(timer);
      return before;
    });
  }

  /** Lets held writes go (idempotent). */
  release(): void {
    const open = this.opener;
    this.opener = null;
    open?.();
  }

  /** Resolves once every event recorded so far is written (or has failed); releases a hold. */
  async settled(): Promise<void> {
    this.release();
    await this.tail;
  }
}
