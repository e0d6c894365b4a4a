// One stretch of a run inside one session: a streamText call over the session's prompt with the
// run's tools, measured after every step. A custom stop condition ends it between two steps when
// the context reaches the reset threshold, so the run can reset and go on with a fresh call, and
// after the step in which the agent handed the work to another agent.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { type StepResult, stepCountIs, streamText, type ToolSet } from "ai";
import { log } from "@/core/log";
import type { AcceptedTransfer, LegGuard } from "@/lib/agents/transfer/guard";
import { measuredModel } from "@/lib/ai/call-measure";
import type { ChatMessage, ContextPart } from "@/lib/chat/types";
import { observeFamilyCall } from "@/lib/context/calibration-prior";
import { type SessionView, StepMeter } from "./run-context";
import type { RunOutput } from "./run-output";

export type LegEnd =
  /** The model answered without asking for more tool calls. */
  | "done"
  /** Stopped between two steps at the reset threshold. */
  | "threshold"
  /** The run used up its steps. */
  | "step_limit"
  /** A call awaits the user's approval. */
  | "approval"
  /** The agent handed the rest of the run to another agent. */
  | "transfer"
  | "aborted"
  | "failed";

export interface LegInput {
  model: LanguageModelV3;
  modelId: string;
  view: SessionView;
  tools: ToolSet;
  /** The guard `tools` were wrapped with: it knows of an accepted transfer. */
  guard: LegGuard;
  /** Steps this call may take (what is left of the run's limit; at least 1). */
  maxSteps: number;
  signal: AbortSignal;
  out: RunOutput;
  /** On every streamed text delta (the run's time to first token). */
  onText?: () => void;
  /** Whether a reading after a step should end the call for a reset. */
  wantsReset: (reading: ContextPart) => boolean;
  /** The system prompt as it should be now (the plan and files change while the run works). */
  currentSystem: () => Promise<string>;
  /** After every step, with the step's reading. */
  onStep: (reading: ContextPart, step: StepResult<ToolSet>) => Promise<void>;
}

export interface LegResult {
  end: LegEnd;
  steps: number;
  /** The context after the last step (or before the call, when no step finished). */
  reading: ContextPart;
  /** Set when `end` is "transfer". */
  transfer?: AcceptedTransfer;
  /** Tokens the leg's steps used, as the provider reported them (summed over its steps). */
  usage: { inputTokens: number; outputTokens: number };
  /** The session's ratio as the leg's reported calls left it (absent when none reported). */
  tokenRatio?: number;
}

const MODEL_FAILED = "The model failed to answer. Try again.";

export async function streamLeg(input: LegInput): Promise<LegResult> {
  const { out, view } = input;
  const meter = new StepMeter(view.context, input.modelId, view.ctx.session.tokenRatio);
  // Every call of the leg is measured as sent, so the session learns its provider's ratio.
  const model = measuredModel(input.model, input.modelId, (sample) => {
    meter.observe(sample);
    observeFamilyCall(input.modelId, sample);
  });
  let steps = 0;
  let last: StepResult<ToolSet> | undefined;
  let thresholdHit = false;
  let failed = false;
  let system = view.ctx.system;
  const usage = { inputTokens: 0, outputTokens: 0 };

  const result = streamText({
    model,
    system,
    messages: view.messages,
    tools: input.tools,
    abortSignal: input.signal,
    stopWhen: [
      stepCountIs(input.maxSteps),
      // A transfer ends the agent's part once its step is done.
      () => input.guard.transfer !== null,
      ({ steps: done }) => {
        const step = done.at(-1);
        // Out of steps, the run ends anyway: the next turn's own check resets if needed.
        if (!step || done.length >= input.maxSteps) return false;
        thresholdHit = input.wantsReset(meter.after(step));
        return thresholdHit;
      },
    ],
    prepareStep: async ({ stepNumber }) => {
      if (stepNumber === 0) return undefined;
      const next = await input.currentSystem();
      if (next === system) return undefined;
      system = next;
      return { system };
    },
    onStepFinish: async (step) => {
      steps++;
      last = step;
      usage.inputTokens += step.usage.inputTokens ?? 0;
      usage.outputTokens += step.usage.outputTokens ?? 0;
      const reading = meter.after(step);
      out.writeContext(reading);
      await input.onStep(reading, step);
    },
    onError: ({ error }) => {
      failed = true;
      log.error("model call failed", error);
    },
  });

  let aborted = false;
  // Forwarded chunk by chunk so whatever the run writes next follows the call's last chunk.
  for await (const chunk of result.toUIMessageStream<ChatMessage>({
    sendStart: false,
    sendFinish: false,
    onError: () => MODEL_FAILED,
  })) {
    if (chunk.type === "abort") aborted = true;
    if (chunk.type === "error") failed = true;
    if (chunk.type === "text-delta") input.onText?.();
    out.write(chunk);
  }

  const reading = meter.current;
  const learned = meter.ratio;
  const done = (leg: Omit<LegResult, "tokenRatio">): LegResult =>
    learned === null ? leg : { ...leg, tokenRatio: learned };
  if (aborted || input.signal.aborted) return done({ end: "aborted", steps, reading, usage });
  // A tool's storage failing is the host's, not the agent's: the run fails.
  if (input.guard.hostError) throw input.guard.hostError;
  if (failed) return done({ end: "failed", steps, reading, usage });
  const step = last as StepResult<ToolSet> | undefined;
  const transfer = input.guard.transfer;
  if (transfer) return done({ end: "transfer", steps, reading, usage, transfer });
  if (step?.content.some((p) => p.type === "tool-approval-request")) {
    return done({ end: "approval", steps, reading, usage });
  }
  if (thresholdHit) return done({ end: "threshold", steps, reading, usage });
  if (step?.finishReason === "tool-calls" && steps >= input.maxSteps) {
    return done({ end: "step_limit", steps, reading, usage });
  }
  return done({ end: "done", steps, reading, usage });
}
