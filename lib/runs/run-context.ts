// What a run's next model call sees and how full that is: the session's context loaded and
// measured in one place (before a call), and the per-step reading after each step — the step's
// provider-reported input tokens plus an estimate of what the step added, O(step) each time.
import "server-only";
import { convertToModelMessages, type ModelMessage, type StepResult, type ToolSet } from "ai";
import type { ChatSession, Message } from "@/db/schema";
import type { Profile } from "@/lib/agents/profiles";
import { estimateTokens, MESSAGE_OVERHEAD_TOKENS } from "@/lib/ai/token-count";
import type { ContextPart } from "@/lib/chat/types";
import { type CallSample, calibrated, nextRatio } from "@/lib/context/calibration";
import { CONTINUE_INSTRUCTION, continueLineTokens } from "@/lib/context/call-overhead";
import { computeUtilization } from "@/lib/context/policy";
import {
  loadSessionContext,
  measureContext,
  type SessionContext,
} from "@/lib/context/session-context";

export interface RunScope {
  userId: string;
  threadId: string;
  profile: Profile;
  modelId: string;
  /** What the agent's tool definitions cost per call (the built-in tools' when absent). */
  toolTokens?: number;
}

export interface SessionView {
  ctx: SessionContext;
  context: ContextPart;
  /** The prompt's messages (system aside), ready for streamText. */
  messages: ModelMessage[];
}

/**
 * Loads a session for the run's next call and measures it. `continued`: the run carries on in
 * this session after a reset, so the prompt gets CONTINUE_INSTRUCTION right after the user
 * messages the reset moved (the request), before the session's own work.
 */
export async function viewSession(
  scope: RunScope,
  session: ChatSession,
  {
    answering = [],
    continued = false,
    tools,
    toolTokens,
    made,
  }: {
    answering?: string[];
    continued?: boolean;
    tools?: ToolSet;
    toolTokens: number;
    /** The session's messages when this request made the thread with them (nothing to read). */
    made?: Message[];
  },
): Promise<SessionView> {
  const { userId, threadId, profile, modelId } = scope;
  const ctx = await loadSessionContext({ userId, threadId, session, profile, answering, made });
  const context = await measureContext({
    session,
    system: ctx.system,
    modelId,
    profile,
    stored: ctx.stored,
    toolTokens: toolTokens + (continued ? continueLineTokens(modelId) : 0),
  });
  // Calls still awaiting an answer are left out: a provider needs a result for every call.
  const messages = await convertToModelMessages(ctx.history, {
    tools,
    ignoreIncompleteToolCalls: true,
  });
  return { ctx, context, messages: continued ? withContinueLine(messages) : messages };
}

function withContinueLine(messages: ModelMessage[]): ModelMessage[] {
  const firstOwn = messages.findIndex((m) => m.role !== "user");
  const at = firstOwn === -1 ? messages.length : firstOwn;
  return [
    ...messages.slice(0, at),
    { role: "user", content: CONTINUE_INSTRUCTION },
    ...messages.slice(at),
  ];
}

type StepContent = StepResult<ToolSet>["content"];

const json = (value: unknown) => (value === undefined ? "" : (JSON.stringify(value) ?? ""));

/** What one step adds to the next call's prompt: its output and its tool results. */
export function estimateStepTokens(content: StepContent, modelId: string): number {
  let total = MESSAGE_OVERHEAD_TOKENS;
  let results = false;
  for (const part of content) {
    switch (part.type) {
      case "text":
      case "reasoning":
        total += estimateTokens(part.text, modelId);
        break;
      case "tool-call":
        total += estimateTokens(part.toolName, modelId) + estimateTokens(json(part.input), modelId);
        break;
      case "tool-result":
        results = true;
        total +=
          estimateTokens(part.toolName, modelId) + estimateTokens(json(part.output), modelId);
        break;
      case "tool-error":
        results = true;
        total +=
          estimateTokens(part.toolName, modelId) + estimateTokens(String(part.error), modelId);
        break;
      case "tool-approval-request":
        total += 2;
        break;
    }
  }
  return results ? total + MESSAGE_OVERHEAD_TOKENS : total;
}

/**
 * The context after each step of one streamText call. The step's reported input covers the
 * whole prompt it was sent (tool definitions included); what the step produced is estimated and
 * scaled by the ratio the session has learned so far, which every reported call moves
 * (`observe`). A step without reported usage builds on the previous reading, so nothing is
 * counted twice.
 */
export class StepMeter {
  private tokens: number;
  private readonly readings = new Map<number, ContextPart>();
  private last: ContextPart;
  private learned: number | null;

  constructor(
    private readonly before: ContextPart,
    private readonly modelId: string,
    /** The session's own ratio (not a family prior) when the call starts. */
    ownRatio: number | null = null,
  ) {
    this.tokens = before.inputTokens;
    this.last = before;
    this.learned = ownRatio;
  }

  /** A call of this leg reported its input: the session's ratio learns from it. */
  observe(sample: CallSample): void {
    this.learned = nextRatio(this.learned, sample);
  }

  /** The session's own ratio after the calls seen so far (null when none taught one). */
  get ratio(): number | null {
    return this.learned;
  }

  /** The reading after `step` (memoized: onStepFinish and stopWhen both ask). */
  after(step: Pick<StepResult<ToolSet>, "stepNumber" | "usage" | "content">): ContextPart {
    const known = this.readings.get(step.stepNumber);
    if (known) return known;
    const reported = step.usage.inputTokens;
    const base = reported !== undefined && reported > 0 ? reported : this.tokens;
    const ratio = this.learned ?? this.before.calibration ?? null;
    this.tokens = base + calibrated(estimateStepTokens(step.content, this.modelId), ratio);
    const { calibration: _, ...rest } = this.before;
    const reading = {
      ...rest,
      inputTokens: this.tokens,
      utilization: computeUtilization({
        contextTokens: this.tokens,
        contextWindow: this.before.contextWindow,
      }),
      ...(ratio === null ? {} : { calibration: ratio }),
    };
    this.readings.set(step.stepNumber, reading);
    this.last = reading;
    return reading;
  }

  /** The latest reading (the one before the call when no step has finished). */
  get current(): ContextPart {
    return this.last;
  }
}
