// One leg of a run: what the agent sees of its session (view), the tools it is given, one
// streamText call over them (run-steps.ts), and storing what the leg produced.
import "server-only";
import type { ToolSet } from "ai";
import { recordSessionUsage } from "@/db/queries/sessions";
import { listSessionGrants } from "@/db/queries/tool-grants";
import type { ChatSession } from "@/db/schema";
import { STOPPED_CALL, settleStoppedCalls } from "@/lib/agents/tool-parts";
import { loadWorkspacePromptContext } from "@/lib/agents/tools/prompt-context";
import { LegGuard } from "@/lib/agents/transfer/guard";
import type { ChatMessage, ContextPart } from "@/lib/chat/types";
import { draftAheadSoon } from "@/lib/context/draft-ahead";
import { systemPromptFor } from "@/lib/context/session-context";
import { wantsReset } from "./loop-decide";
import { openMessage, recordProgress, storeMessage } from "./loop-message";
import { firstText, type InSession, type RunState } from "./loop-state";
import { commitTransfer } from "./loop-transfer";
import { type SessionView, viewSession } from "./run-context";
import { STATUS_OF } from "./run-request";
import { type LegResult, streamLeg } from "./run-steps";

/** Loads and measures a session as the run's agent sees it, and shows the reading. */
export async function view(s: RunState, session: ChatSession): Promise<SessionView> {
  const tools = toolsFor(s, session);
  // Only the run's first look at the session it made: later ones see what it stored since.
  const made = s.made && session.id === s.session.id ? s.made : undefined;
  s.made = undefined;
  const seen = await viewSession(s.agent.scope, session, {
    answering: s.answering,
    continued: s.inSession.continued,
    tools,
    toolTokens: await s.agent.toolTokens(tools),
    made,
  });
  s.out.writeContext(seen.context);
  return seen;
}

function toolsFor(s: RunState, session: ChatSession, guard = new LegGuard()): ToolSet {
  const { userId, threadId } = s.agent.scope;
  return s.agent.tools({
    tools: {
      userId,
      threadId,
      sessionId: session.id,
      runId: s.run?.id ?? null,
      isGranted: async (tool) =>
        (await listSessionGrants({ userId, sessionId: session.id })).has(tool),
    },
    guard,
    approvedCallIds: s.input.resume?.approvedCallIds ?? new Set(),
    transfersSoFar: () => s.run?.handoffCount ?? 0,
    onDecision: (decision, request) => s.recorder?.transferDecision(decision, request, s.agent.ref),
    commit: (accepted) => commitTransfer(s, session, accepted),
    mcp: s.mcp,
  });
}

/** Streams one leg in the current session and stores what it produced. */
export async function runLeg(s: RunState, seen: SessionView): Promise<LegResult> {
  const leg = await streamInSession(s, seen);
  await storeLeg(s, leg);
  if (!leg.transfer) draftAhead(s, leg.reading);
  return leg;
}

async function streamInSession(s: RunState, seen: SessionView): Promise<LegResult> {
  const scope = s.agent.scope;
  const maxSteps = (s.run?.maxSteps ?? scope.profile.maxSteps) - s.stepCount;
  if (maxSteps <= 0) {
    return {
      end: "step_limit",
      steps: 0,
      reading: seen.context,
      usage: { inputTokens: 0, outputTokens: 0 },
    };
  }
  const session = s.session;
  s.recorder?.context(seen.context, session, seen.messages.length);
  s.reading = seen.context;
  // Approvals answered in this request belong to the agent that asked; a target gets none.
  const guard = new LegGuard(s.input.resume?.approvedCallIds, s.recorder?.tools);
  return streamLeg({
    model: s.agent.model,
    modelId: s.agent.modelId,
    view: seen,
    guard,
    tools: { ...toolsFor(s, session, guard), ...s.input.extraTools },
    maxSteps,
    signal: s.control.signal,
    out: s.out,
    onText: () => firstText(s),
    wantsReset: (reading) => wantsReset(s, reading),
    // Only the plan and file list change within a session; the rest is the session's own.
    currentSystem: async () =>
      systemPromptFor(
        scope.profile,
        seen.ctx.brief,
        session.summary,
        (await loadWorkspacePromptContext(scope)).text,
      ),
    onStep: async (reading, step) => {
      s.reading = reading;
      s.recorder?.release();
      s.recorder?.step(step);
      s.stepCount++;
      s.inSession.steps++;
      await recordProgress(s);
      // Between two steps: the reply so far is drafted as it stands.
      if (step.finishReason === "tool-calls") draftAhead(s, reading, s.out.peek());
    },
  });
}

/** Past the draft threshold the next handoff is written in the background, never awaited. */
function draftAhead(s: RunState, reading: ContextPart, live: ChatMessage | null = null): void {
  const stored = s.message;
  draftAheadSoon({
    ...s.agent.scope,
    session: s.session,
    model: s.agent.model,
    reading,
    live: live && stored ? { seq: stored.seq, message: live } : undefined,
  });
}

/** Stores what the leg produced in the current session's message, and the session's usage. */
async function storeLeg(s: RunState, leg: LegResult): Promise<void> {
  // A stopped leg's unfinished tool calls end as stopped, in the stored and the live message.
  const message = await s.out.takeMessage(
    leg.end === "aborted" ? (current) => settleStopped(s, current) : undefined,
  );
  await storeMessage(s, message, STATUS_OF[leg.end].message);
  if (leg.steps > 0 && leg.end !== "aborted" && s.message) {
    // The reading covers every message up to and including this one.
    await recordSessionUsage({
      sessionId: s.session.id,
      inputTokens: leg.reading.inputTokens,
      coveredSeq: s.message.seq,
      tokenRatio: leg.tokenRatio,
    });
  }
}

function settleStopped(s: RunState, message: ChatMessage): ChatMessage {
  const { parts, settled } = settleStoppedCalls(message.parts);
  for (const toolCallId of settled) {
    s.out.writeToClient({ type: "tool-output-error", toolCallId, errorText: STOPPED_CALL });
  }
  return { ...message, parts: parts as ChatMessage["parts"] };
}

/**
 * The run goes on in `session` (a reset's or a transfer's): the client is told, a new stored
 * message takes the next leg, and the agent sees the session afresh.
 */
export async function goOnIn(
  s: RunState,
  session: ChatSession,
  start: Omit<InSession, "steps">,
): Promise<SessionView> {
  s.session = session;
  s.inSession = { steps: 0, ...start };
  s.out.writeSession(session);
  await openMessage(s);
  return view(s, session);
}
