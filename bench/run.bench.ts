// Agent-runtime costs (issue 9): the per-step context accounting of a run at its 20th and its
// 200th step (replayed over real step results), and the reset overhead inside a run — from the
// handoff being ready to the first output of session N+1's model call — excluding model time.
// Run: npx tsx --conditions=react-server bench/run.bench.ts   (DATABASE_URL=… for Postgres)
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { type StepResult, stepCountIs, streamText, type ToolSet, tool } from "ai";
import { z } from "zod";
import { users } from "@/db/schema";
import { OFFLINE_MODEL_ID } from "@/lib/ai/registry";
import { createOfflineModel } from "@/lib/demo-model/model";
import { StepMeter } from "@/lib/runs/run-context";
import { runChatTurn } from "@/lib/runs/turn";
import { ms, openScratchDatabase, percentile, table } from "./support";

process.env.BATON_LOCAL_DELAY_MS = "0";
process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
process.env.BATON_LOCAL_CONTEXT_WINDOW = "4096";

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const REPEAT = 200;
const us = (n: number) => `${(n * 1000).toFixed(1)} µs`;
/** Steps timed together at the end of each replay. */
const WINDOW = 10;

/** Step results of a real streamText run of `steps` tool steps (offline model, no database). */
async function realSteps(steps: number): Promise<StepResult<ToolSet>[]> {
  const model = createOfflineModel();
  const notes = new Map<string, string>();
  const tools = {
    write_file: tool({
      description: "Write a file.",
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      execute: async ({ path, content }) => {
        notes.set(path, content);
        return { ok: true, path, version: 1, bytes: content.length, created: true };
      },
    }),
  };
  const collected: StepResult<ToolSet>[] = [];
  // One `write` per turn keeps each step the same size; the prompt grows with every step.
  for (let i = 0; collected.length < steps; i++) {
    const result = streamText({
      model,
      tools,
      prompt: `write notes/n${i}.md: a note of a dozen words about step ${i} of the long run`,
      stopWhen: stepCountIs(1),
    });
    for (const step of await result.steps) collected.push(step as unknown as StepResult<ToolSet>);
  }
  return collected.slice(0, steps);
}

/** Time per step of the accounting for the last steps of `steps`, after all those before. */
function accountingAt(steps: StepResult<ToolSet>[]): number[] {
  const samples: number[] = [];
  const before = {
    inputTokens: 1000,
    contextWindow: 1_000_000,
    utilization: 0.001,
    threshold: 0.8,
    strategy: "reset" as const,
  };
  for (let r = 0; r < REPEAT; r++) {
    const meter = new StepMeter(before, OFFLINE_MODEL_ID);
    // Renumbered so the memo sees distinct steps, as in a run; the last WINDOW steps are timed
    // (one step takes microseconds, below the timer's resolution).
    const numbered = steps.map((s, i) => ({ ...s, stepNumber: i }) as StepResult<ToolSet>);
    const from = numbered.length - WINDOW;
    for (const step of numbered.slice(0, from)) meter.after(step);
    const start = performance.now();
    for (const step of numbered.slice(from)) meter.after(step);
    samples.push((performance.now() - start) / WINDOW);
  }
  return samples;
}

/** The offline model, noting when each handoff (structured output) call returns. */
function timedModel(marks: { handoffReady: number[] }): LanguageModelV3 {
  const inner = createOfflineModel();
  return {
    specificationVersion: "v3",
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    doGenerate: async (options) => {
      const result = await inner.doGenerate(options);
      if (options.responseFormat?.type === "json") marks.handoffReady.push(performance.now());
      return result;
    },
    doStream: (options) => inner.doStream(options),
  };
}

/** Reads a run's stream; returns when session N+1's first model output arrived after each reset. */
async function firstOutputsAfterResets(response: Response): Promise<number[]> {
  const reader = response.body?.getReader();
  if (!reader) return [];
  const decoder = new TextDecoder();
  const firsts: number[] = [];
  let buffer = "";
  let waiting = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (event.includes('"event":"reset_complete"')) waiting = true;
      else if (
        waiting &&
        (event.includes('"type":"tool-input-start"') || event.includes('"type":"text-delta"'))
      ) {
        firsts.push(performance.now());
        waiting = false;
      }
      end = buffer.indexOf("\n\n");
    }
  }
  return firsts;
}

async function turn(userId: string, threadId: string, text: string, model: LanguageModelV3) {
  return runChatTurn({
    actor: { id: userId, isAnonymous: true, email: null, name: "bench" },
    request: {
      trigger: "submit-message",
      id: threadId,
      message: { id: randomUUID(), role: "user", parts: [{ type: "text", text }] },
    },
    signal: new AbortController().signal,
    deps: { languageModel: () => model },
  });
}

async function benchResetsInRuns(userId: string): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const threadId = randomUUID();
    const marks = { handoffReady: [] as number[] };
    const model = timedModel(marks);
    await (
      await turn(
        userId,
        threadId,
        "plan: outline the guide; draft the intro; list the tools; write the examples; review the text; publish the guide",
        model,
      )
    ).text();
    const firsts = await firstOutputsAfterResets(
      await turn(userId, threadId, "work through the plan", model),
    );
    for (const [k, first] of firsts.entries()) {
      const ready = marks.handoffReady[k];
      if (ready !== undefined) samples.push(first - ready);
    }
    await new Promise((r) => setTimeout(r, 20)); // let the run store its last message
  }
  return samples;
}

const steps = await realSteps(200);
const at20 = accountingAt(steps.slice(0, 20));
const at200 = accountingAt(steps);

const scratch = await openScratchDatabase("run");
try {
  const { getDb } = await import("@/db/client");
  const userId = randomUUID();
  await getDb()
    .insert(users)
    .values({ id: userId, name: "bench", email: `${userId}@bench.test` });
  const resets = await benchResetsInRuns(userId);
  console.log(
    `\n### Agent runtime on ${scratch.kind} (${new Date().toISOString().slice(0, 10)})\n`,
  );
  console.log(
    table(
      ["measure", "n", "median", "p99"],
      [
        [
          "reset inside a run: handoff ready → first output of session N+1",
          resets.length,
          ms(percentile(resets, 50)),
          ms(percentile(resets, 99)),
        ],
        [
          "context accounting of one step, 20th step of a run",
          at20.length,
          us(percentile(at20, 50)),
          us(percentile(at20, 99)),
        ],
        [
          "context accounting of one step, 200th step of a run",
          at200.length,
          us(percentile(at200, 50)),
          us(percentile(at200, 99)),
        ],
      ],
    ),
  );
  console.log(
    `\nratio 200th / 20th step (median): ${(percentile(at200, 50) / percentile(at20, 50)).toFixed(2)}`,
  );
} finally {
  await scratch.dispose();
}
