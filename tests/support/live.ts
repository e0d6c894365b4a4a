// Helpers for live-stream tests: a model whose text is released chunk by chunk by the test (so
// a reader can join mid-reply without timing), a tool that runs until its abort signal fires,
// and calls of the thread, stream and stop routes with a real guest session.
import type {
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { POST as stopRoute } from "@/app/api/chat/[id]/stop/route";
import { GET as streamRoute } from "@/app/api/chat/[id]/stream/route";
import { GET as threadRoute } from "@/app/api/threads/[id]/route";
import { type Actor, requireActor } from "@/lib/auth/server";
import type { ThreadView } from "@/lib/chat/thread-view";
import { reportedInput } from "./runs";

const usage = (input: number, output: number): LanguageModelV3Usage => ({
  inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: output, text: output, reasoning: 0 },
});

/** A one-shot latch the test opens. */
export function latch() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/**
 * A model that answers every call with `chunks` as text, each chunk only once the test has
 * released it (`release(n)`). An aborted call ends its stream with the abort reason. Calls
 * that `tools` script (by call index) ask for those tools instead.
 */
export function gatedModel(
  chunks: string[],
  toolCalls: Record<number, { toolName: string; toolCallId: string }> = {},
) {
  let released = 0;
  const waiting = new Set<() => void>();
  const release = (n = 1) => {
    released += n;
    for (const wake of [...waiting]) wake();
  };
  let calls = 0;
  const started: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    provider: "baton",
    modelId: "local",
    doStream: async (options) => {
      const call = calls++;
      started.push(options);
      const script = toolCalls[call];
      if (script) {
        const parts: LanguageModelV3StreamPart[] = [
          { type: "stream-start", warnings: [] },
          { type: "tool-call", ...script, input: "{}" },
          {
            type: "finish",
            finishReason: { unified: "tool-calls", raw: "tool_calls" },
            usage: usage(reportedInput(options), 5),
          },
        ];
        return {
          stream: new ReadableStream<LanguageModelV3StreamPart>({
            start(controller) {
              for (const part of parts) controller.enqueue(part);
              controller.close();
            },
          }),
        };
      }
      let sent = 0;
      let phase: "start" | "text" | "end" = "start";
      const signal = options.abortSignal;
      return {
        stream: new ReadableStream<LanguageModelV3StreamPart>({
          async pull(controller) {
            if (phase === "start") {
              controller.enqueue({ type: "stream-start", warnings: [] });
              controller.enqueue({ type: "text-start", id: "t" });
              phase = "text";
              return;
            }
            if (phase === "end") return;
            if (sent >= chunks.length) {
              controller.enqueue({ type: "text-end", id: "t" });
              controller.enqueue({
                type: "finish",
                finishReason: { unified: "stop", raw: "stop" },
                usage: usage(reportedInput(options), chunks.length),
              });
              controller.close();
              phase = "end";
              return;
            }
            while (sent >= released && !signal?.aborted) {
              await new Promise<void>((resolve) => {
                const wake = () => {
                  waiting.delete(wake);
                  signal?.removeEventListener("abort", wake);
                  resolve();
                };
                waiting.add(wake);
                signal?.addEventListener("abort", wake);
              });
            }
            if (signal?.aborted) {
              controller.error(signal.reason);
              phase = "end";
              return;
            }
            controller.enqueue({ type: "text-delta", id: "t", delta: chunks[sent++] ?? "" });
          },
        }),
      };
    },
  });
  return { model, release, releaseAll: () => release(chunks.length), calls: () => calls, started };
}

/** A tool that runs until its abort signal fires; the test sees it start and end. */
export function watchedTool() {
  const running = latch();
  const state = { aborted: false };
  const watched = tool({
    description: "Works until it is stopped.",
    inputSchema: z.object({}),
    execute: async (_input, { abortSignal }) => {
      running.open();
      await new Promise<void>((_, reject) => {
        const stop = () => {
          state.aborted = true;
          reject(abortSignal?.reason ?? new Error("aborted"));
        };
        if (abortSignal?.aborted) stop();
        abortSignal?.addEventListener("abort", stop);
      });
      return { ok: true };
    },
  });
  return { tool: watched, running: running.opened, state };
}

export async function actorOf(headers: Headers): Promise<Actor> {
  return requireActor(new Request("http://localhost:3000/api/threads", { headers }));
}

export async function threadView(headers: Headers, threadId: string): Promise<ThreadView> {
  const response = await threadRoute(
    new Request(`http://localhost:3000/api/threads/${threadId}`, { headers }),
    { params: Promise.resolve({ id: threadId }) },
  );
  if (response.status !== 200) throw new Error(`thread view answered ${response.status}`);
  return (await response.json()) as ThreadView;
}

export function getStream(headers: Headers, threadId: string, streamId?: string) {
  const query = streamId ? `?streamId=${streamId}` : "";
  return streamRoute(
    new Request(`http://localhost:3000/api/chat/${threadId}/stream${query}`, { headers }),
    { params: Promise.resolve({ id: threadId }) },
  );
}

export function postStop(headers: Headers, threadId: string, body: unknown = {}) {
  const h = new Headers(headers);
  h.set("content-type", "application/json");
  return stopRoute(
    new Request(`http://localhost:3000/api/chat/${threadId}/stop`, {
      method: "POST",
      headers: h,
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ id: threadId }) },
  );
}

/** Reads an SSE body as it arrives; `text()` is everything so far, `done` settles at its end. */
export function readAlong(response: Response) {
  let text = "";
  const body = response.body;
  if (!body) throw new Error("no body");
  const done = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
    }
    return text;
  })();
  return { text: () => text, done };
}
