// A run: the model's steps and tool calls answering one request, in one UI message stream, over
// as many sessions as it needs. The loop: enter (a new run takes its session, a resumed one its
// stored message) → stream a leg (streamText until it answers, hits the step limit, asks for
// approval, fills the context or hands the work to another agent) → store it → go on as the
// target, reset and go on in a new session, or end. Its state is one RunState (loop-state.ts).
import "server-only";
import {
  consumeStream,
  createUIMessageStream,
  createUIMessageStreamResponse,
  type UIMessageStreamWriter,
} from "ai";
import { BatonError } from "@/core/errors";
import { log } from "@/core/log";
import type { ChatMessage } from "@/lib/chat/types";
import { recordStream } from "@/lib/streams/record";
import { registerLiveStream } from "@/lib/streams/stop-registry";
import { afterLeg, wantsReset } from "./loop-decide";
import { endRun, failRun, type RunEnd } from "./loop-end";
import { goOnIn, runLeg } from "./loop-leg";
import { storeMessage } from "./loop-message";
import { resetBetweenSteps } from "./loop-reset";
import { resumeRun, startRun } from "./loop-start";
import {
  afterFirstText,
  cancelPlaceholder,
  createRunState,
  type RunControl,
  type RunState,
} from "./loop-state";
import { AS_TARGET, handOver } from "./loop-transfer";
import type { RunRequest } from "./run-request";
import { SAVE_INTERVAL_MS } from "./run-save";
import type { LegEnd } from "./run-steps";

export function streamRun(input: RunRequest): Response {
  // The stream the run's claim named: recorded so any tab can follow it, stopped only by a stop.
  const streamId = input.claimed?.streamId ?? input.resume?.run.streamId ?? null;
  const live = streamId
    ? registerLiveStream({
        streamId,
        userId: input.actor.id,
        threadId: input.threadId,
        // A reply queued behind a reset is not stopped until it is being answered.
        stoppable: !input.queued,
      })
    : null;
  const signals = [live?.signal, input.signal].filter((s): s is AbortSignal => s !== undefined);
  const control: RunControl = {
    signal: AbortSignal.any(signals),
    entered: () => live?.setStoppable(true),
  };
  const stream = createUIMessageStream<ChatMessage>({
    execute: async ({ writer }) => {
      try {
        await runLoop(input, writer, control);
      } finally {
        live?.unregister();
      }
    },
    onError: (error) => {
      log.error("run failed", error);
      return error instanceof BatonError ? error.message : "The model failed to answer. Try again.";
    },
  });
  return createUIMessageStreamResponse({
    stream,
    // Tee the stream and drain one copy here (recording it) so the run goes on without a client.
    consumeSseStream: ({ stream: copy }) =>
      streamId ? recordStream(streamId, copy) : consumeStream({ stream: copy }),
  });
}

async function runLoop(
  input: RunRequest,
  writer: UIMessageStreamWriter<ChatMessage>,
  control: RunControl,
): Promise<void> {
  const s = await createRunState(input, writer, control);
  writer.write({ type: "start", messageId: s.liveId, messageMetadata: { model: s.agent.modelId } });
  const saving = setInterval(() => s.saver.tick(), SAVE_INTERVAL_MS);
  try {
    await endRun(s, await runLegs(s));
  } catch (error) {
    await failRun(s);
    throw error;
  } finally {
    clearInterval(saving);
    cancelPlaceholder(s);
    s.recorder?.release();
    afterFirstText(s);
    await s.mcp.close();
  }
}

const SUSPENDED: RunEnd = { kind: "suspended" };

const finished = (end: LegEnd): RunEnd => ({ kind: "finished", end });

/** Leg after leg until the run ends; returns how it ends. */
async function runLegs(s: RunState): Promise<RunEnd> {
  let seen = s.input.resume ? await resumeRun(s) : await startRun(s);
  if (seen === "suspended") return SUSPENDED;
  if (s.input.resume?.mode === "continue" && wantsReset(s, seen.context)) {
    // Continuing a run that died at the threshold: reset first, as it was about to.
    const next = await resetBetweenSteps(s, seen.context, "threshold");
    if (next === "suspended") return SUSPENDED;
    if (next !== "approval") seen = next;
  }
  for (;;) {
    if (s.control.signal.aborted) {
      // Stopped while a reset ran (a stop never cancels one): no further leg starts.
      await storeMessage(s, await s.out.takeMessage(), "partial");
      return finished("aborted");
    }
    const leg = await runLeg(s, seen);
    if (leg.transfer) {
      seen = await goOnIn(s, await handOver(s, leg.transfer), AS_TARGET);
      continue;
    }
    const next = afterLeg(s, leg);
    if (next === "end") return finished(leg.end);
    if (next === "thrash") return { kind: "thrash", reading: leg.reading };
    const reset = await resetBetweenSteps(s, leg.reading, leg.end);
    if (reset === "suspended") return SUSPENDED;
    if (reset === "approval") return finished("approval");
    seen = reset;
  }
}
