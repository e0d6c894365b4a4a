// What the run loop tells the run's journal (lib/agents/journal.ts): which agent handles which
// stretch of the run (an invocation), the context of each model call, tool calls and results,
// approvals, resets, transfers and how the run ended — with the steps and tokens of each
// invocation. Writes keep their order and never fail the run.
import "server-only";
import type { StepResult, ToolSet } from "ai";
import type { ChatSession, RunStatus } from "@/db/schema";
import { type EventAuthor, type RunEventType, RunJournal } from "@/lib/agents/journal";
import type { AcceptedTransfer, ToolCallObserver } from "@/lib/agents/transfer/guard";
import type { TransferToolContext } from "@/lib/agents/transfer/tools";
import type { AgentRef, ContextPart, ContextResetPart } from "@/lib/chat/types";

type Decision = Parameters<NonNullable<TransferToolContext["onDecision"]>>;

const FAILED: ReadonlySet<RunStatus> = new Set(["failed", "reset_failed", "interrupted"]);

export class RunRecorder {
  private readonly journal: RunJournal;
  private author: EventAuthor;
  private steps = 0;
  private tokens = { inputTokens: 0, outputTokens: 0 };
  /** The invocation an accepted transfer created, until the transfer starts it. */
  private next: EventAuthor | null = null;

  constructor(scope: { userId: string; threadId: string; runId: string }, agent: AgentRef) {
    this.journal = new RunJournal(scope);
    this.author = { agent: agent.id, invocationId: crypto.randomUUID() };
  }

  /** Holds the journal's writes until `release()` (or `maxMs`): see RunJournal.hold. */
  hold(maxMs: number) {
    this.journal.hold(maxMs);
  }

  release() {
    this.journal.release();
  }

  private record(type: RunEventType, payload: Record<string, unknown> = {}, who = this.author) {
    void this.journal.record(type, payload, who);
  }

  /** The run's first agent begins (or, `resumed`, goes on after an approval or a Continue). */
  started(agent: AgentRef, model: string, resumed?: "approval" | "continue") {
    if (!resumed) this.record("agent_invocation_created", { agent });
    this.record("agent_invocation_started", { agent, model, ...(resumed ? { resumed } : {}) });
  }

  approvalsAnswered(toolCallIds: Iterable<string>) {
    for (const toolCallId of toolCallIds) {
      this.record("approval_resolved", { approvalId: toolCallId, toolCallId, approved: true });
    }
  }

  context(reading: ContextPart, session: ChatSession, messageCount: number) {
    this.record("context_assembled", {
      sessionNumber: session.number,
      inputTokens: reading.inputTokens,
      contextWindow: reading.contextWindow,
      utilization: reading.utilization,
      messageCount,
    });
  }

  /** A finished step: counted, with its tokens, for the invocation's totals. */
  step(step: StepResult<ToolSet>) {
    this.steps++;
    this.tokens.inputTokens += step.usage.inputTokens ?? 0;
    this.tokens.outputTokens += step.usage.outputTokens ?? 0;
    for (const part of step.content) {
      // A call the SDK could not run (bad input, an unknown tool) never reached the tool.
      if (part.type === "tool-error") {
        this.record("tool_result", {
          toolName: part.toolName,
          toolCallId: part.toolCallId,
          ok: false,
          error: part.error instanceof Error ? part.error.message : String(part.error),
        });
      }
    }
  }

  /** Tool calls as they run, in order. */
  readonly tools: ToolCallObserver = {
    call: (toolName, toolCallId, args) => this.record("tool_call", { toolName, toolCallId, args }),
    result: (toolName, toolCallId, output) => {
      const result = output as { ok?: unknown; error?: unknown } | undefined;
      this.record("tool_result", {
        toolName,
        toolCallId,
        ok: result?.ok !== false,
        ...(typeof result?.error === "string" ? { error: result.error } : {}),
      });
    },
    approval: (toolName, toolCallId, args) =>
      this.record("approval_requested", { approvalId: toolCallId, toolName, toolCallId, args }),
  };

  /** A reset's stream part, as the run writes it. */
  reset(part: ContextResetPart) {
    const resetId = part.oldSessionId;
    if (part.event === "reset_starting") {
      this.record("reset_started", { resetId, utilization: part.utilization });
    } else if (part.event === "awaiting_review") {
      this.record("reset_awaiting_review", {
        resetId,
        ...(part.draft ? { sessionNumber: part.draft.fromSession } : {}),
      });
    } else if (part.event === "reset_complete") {
      this.record("reset_committed", { resetId, sessionNumber: part.sessionNumber });
    } else if (part.event === "reset_failed" || part.event === "reset_cancelled") {
      this.record("reset_failed", { resetId, reason: part.reason, event: part.event });
    }
  }

  /** handoff_to_agent's decision, in the order requested → created → accepted, or denied. */
  transferDecision(decision: Decision[0], request: Decision[1], from: AgentRef) {
    this.record("agent_handoff_requested", {
      from,
      to: request.agentId,
      objective: request.objective,
      toolCallId: request.toolCallId,
    });
    if (!decision.ok) {
      this.record("agent_handoff_denied", {
        from,
        to: request.agentId,
        reason: decision.message,
        code: decision.code,
      });
      return;
    }
    const to = { id: decision.target.id, name: decision.target.name };
    this.next = { agent: to.id, invocationId: crypto.randomUUID() };
    this.record("agent_invocation_created", { agent: to, model: decision.modelId }, this.next);
    this.record("agent_handoff_accepted", { from, to, objective: request.objective });
  }

  /** The transfer committed: the source's invocation ends as transferred, the target's starts. */
  transferred(accepted: AcceptedTransfer, session: ChatSession) {
    const { from, to } = accepted.brief;
    this.record("agent_invocation_transferred", {
      from,
      to,
      sessionNumber: session.number,
      reason: accepted.brief.reason,
      steps: this.steps,
      ...this.tokens,
    });
    this.author = this.next ?? { agent: to.id, invocationId: crypto.randomUUID() };
    this.next = null;
    this.steps = 0;
    this.tokens = { inputTokens: 0, outputTokens: 0 };
    this.record("agent_invocation_started", { agent: to, model: accepted.modelId });
  }

  /** The run ended (or parked on an approval); waits until the journal is written. */
  async ended(status: Exclude<RunStatus, "running">, reason: string | null, transfers: number) {
    this.record("agent_invocation_completed", {
      status,
      steps: this.steps,
      ...this.tokens,
      ...(reason ? { failureReason: reason } : {}),
    });
    if (status !== "awaiting_approval" && status !== "awaiting_review") {
      this.record(FAILED.has(status) ? "run_failed" : "run_completed", {
        status,
        // The journal's key for the run's transfer count, as stored.
        handoffs: transfers,
        ...(reason ? { failureReason: reason } : {}),
      });
    }
    await this.journal.settled();
  }
}
