// A run's agent handing the rest of the run to another agent: the transfer is committed while
// the tool call runs, and after that step the run goes on as the target in the target's session.
import "server-only";
import type { ChatSession } from "@/db/schema";
import type { AcceptedTransfer } from "@/lib/agents/transfer/guard";
import { agentHandoffPart, transferToAgent } from "@/lib/agents/transfer/transfer";
import { sealMessage } from "./loop-message";
import { enterAgent, type InSession, type RunState } from "./loop-state";

/** The target starts from the brief and the request, not from a continue line. */
export const AS_TARGET: Omit<InSession, "steps"> = {
  enteredByReset: false,
  resetFailed: false,
  continued: false,
};

/**
 * Commits an accepted transfer while its tool call runs — the source's session ends, the
 * target's begins, the run counts the transfer and gives the target its own step budget — so a
 * server that dies after the tool answers resumes the run as the target.
 */
export async function commitTransfer(
  s: RunState,
  session: ChatSession,
  accepted: AcceptedTransfer,
): Promise<void> {
  const reading = s.reading;
  if (!reading) throw new Error("a transfer before the leg measured its context");
  const run = s.run
    ? {
        id: s.run.id,
        handoffCount: s.run.handoffCount + 1,
        // The step transferring is not counted yet; the target gets a budget of its own.
        maxSteps: s.stepCount + 1 + accepted.target.maxSteps,
      }
    : undefined;
  s.committed = await transferToAgent({
    scope: s.agent.scope,
    session,
    request: s.input.request,
    accepted,
    reading,
    run,
  });
  if (s.run && run) {
    s.run = { ...s.run, handoffCount: run.handoffCount, maxSteps: run.maxSteps };
  }
}

/**
 * After the step that transferred: the source's message is stored and the run's agent becomes
 * the target (its prompt, model and tools). Returns the target's session, where the run goes on.
 */
export async function handOver(s: RunState, accepted: AcceptedTransfer): Promise<ChatSession> {
  const from = s.session;
  const transfer = s.committed;
  if (!transfer) throw new Error("an accepted transfer that was not committed");
  s.committed = null;
  s.recorder?.transferred(accepted, transfer.session);
  s.out.write({
    type: "data-agent-handoff",
    id: `agent-handoff-${from.id}`,
    data: agentHandoffPart(from, transfer),
  });
  await sealMessage(s);
  const model =
    accepted.modelId === s.agent.modelId ? s.agent.model : s.input.languageModel(accepted.modelId);
  s.agent = await enterAgent(s.input, accepted.target, accepted.modelId, model);
  return transfer.session;
}
