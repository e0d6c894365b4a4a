// The offline model's stream plumbing: a list of parts, each sent after its delay, that stops at
// once with an AbortError when the call's signal fires (as fetch-based providers do).
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";

/*
 * What fetch-based providers reject with when their signal fires, so callers need one check:
 * streamText turns an AbortError on an aborted signal into its `abort` part. A TimeoutError
 * (AbortSignal.timeout) passes through as is; any other reason becomes an AbortError.
 */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && (reason.name === "AbortError" || reason.name === "TimeoutError")) {
    return reason;
  }
  return new DOMException("This operation was aborted", "AbortError");
}

export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortError(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      if (signal) reject(abortError(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function nextIoTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** One word plus the whitespace after it per delta; leading whitespace joins the first word. */
export function splitWords(text: string): string[] {
  const words = text.match(/\S+\s*/g) ?? [];
  const lead = text.length - text.trimStart().length;
  if (words.length === 0) return text ? [text] : [];
  if (lead > 0) words[0] = text.slice(0, lead) + words[0];
  return words;
}

export interface TimedPart {
  delayMs: number;
  part: LanguageModelV3StreamPart;
}

/** A fresh stream per call: a ReadableStream can be read once, and retries call again. */
export function timedStream(
  plan: TimedPart[],
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV3StreamPart> {
  let next = 0;
  // With no delay, the parts up to the first word come at once (as a provider's first network
  // read brings them); after it, each part waits for the next turn of the event loop.
  const firstWord = Math.max(
    0,
    plan.findIndex((step) => step.part.type === "text-delta"),
  );
  let settled = false;
  let onAbort: (() => void) | undefined;
  const detach = () => {
    settled = true;
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  };
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      if (!signal) return;
      // Error the stream the moment the signal fires, even while nobody is pulling.
      onAbort = () => {
        if (settled) return;
        detach();
        controller.error(abortError(signal));
      };
      signal.addEventListener("abort", onAbort, { once: true });
    },
    async pull(controller) {
      const step = plan[next++];
      if (step === undefined) {
        detach();
        controller.close();
        return;
      }
      try {
        // Yielding to I/O between parts, as a provider's stream does (its parts arrive in
        // network reads): a reply made of promise callbacks alone would hold the response's
        // socket writes until its last word.
        if (step.delayMs > 0) await sleep(step.delayMs, signal);
        else if (next - 1 > firstWord) await nextIoTurn();
      } catch {
        return; // onAbort has already errored the stream
      }
      if (settled) return;
      controller.enqueue(step.part);
      if (next === plan.length) {
        detach();
        controller.close();
      }
    },
    cancel() {
      detach();
    },
  });
}
