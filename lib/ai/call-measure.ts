// Measures every model call as it is sent: the local estimate of exactly the prompt and tool
// definitions the provider receives, beside the input tokens the provider reports for it. The
// pair is what calibration learns from (lib/context/calibration.ts). Calls that report no input,
// fail or are cut off report nothing: their usage, if any, is not the whole prompt's.
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3FinishReason,
  LanguageModelV3Middleware,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { wrapLanguageModel } from "ai";
import type { CallSample } from "@/lib/context/calibration";
import { estimatePromptTokens, toolDefinitionTokens } from "./token-count";

/** The local estimate of one call's whole input: its prompt (system included) and its tools. */
function estimateCallInput(params: LanguageModelV3CallOptions, modelId: string): number {
  return estimatePromptTokens(params.prompt, modelId) + toolDefinitionTokens(params.tools, modelId);
}

/** Whether a call ended as the provider meant it to (not an error, not a stream without an end). */
function endedProperly(reason: LanguageModelV3FinishReason): boolean {
  if (reason.unified === "error") return false;
  return !(reason.unified === "other" && reason.raw === undefined);
}

function sampleOf(
  estimate: () => number,
  usage: LanguageModelV3Usage,
  reason: LanguageModelV3FinishReason,
): CallSample | null {
  const reported = usage.inputTokens.total;
  if (reported === undefined || reported <= 0 || !endedProperly(reason)) return null;
  return { reported, estimated: estimate() };
}

/** Middleware that hands `onSample` the estimate and the reported input of every whole call. */
function callMeasureMiddleware(
  modelId: string,
  onSample: (sample: CallSample) => void,
): LanguageModelV3Middleware {
  return {
    specificationVersion: "v3",
    // The estimate is made once the call has ended (its prompt is the same), so it never
    // stands between the call and its first token.
    wrapGenerate: async ({ doGenerate, params }) => {
      const result = await doGenerate();
      const sample = sampleOf(
        () => estimateCallInput(params, modelId),
        result.usage,
        result.finishReason,
      );
      if (sample && !params.abortSignal?.aborted) onSample(sample);
      return result;
    },
    wrapStream: async ({ doStream, params }) => {
      const estimated = () => estimateCallInput(params, modelId);
      const result = await doStream();
      let failed = false;
      const watch = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
        transform(chunk, controller) {
          if (chunk.type === "error") failed = true;
          if (chunk.type === "finish" && !failed && !params.abortSignal?.aborted) {
            const sample = sampleOf(estimated, chunk.usage, chunk.finishReason);
            if (sample) onSample(sample);
          }
          controller.enqueue(chunk);
        },
      });
      return { ...result, stream: result.stream.pipeThrough(watch) };
    },
  };
}

/** `model`, with every call it makes measured. */
export function measuredModel(
  model: LanguageModelV3,
  modelId: string,
  onSample: (sample: CallSample) => void,
): LanguageModelV3 {
  return wrapLanguageModel({ model, middleware: callMeasureMiddleware(modelId, onSample) });
}
