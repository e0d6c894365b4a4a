// Context-engine costs (issue 3): reset overhead excluding model time — from the handoff being
// ready to the first token of session N+1 — over 50 resets, and per-turn token accounting on a
// 2,000-message session versus a 20-message one.
// Run: npx tsx --conditions=react-server bench/context.bench.ts   (DATABASE_URL=… for Postgres)
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { getCurrentSession, recordSessionUsage } from "@/db/queries/sessions";
import { ensureThread } from "@/db/queries/threads";
import { messages, users } from "@/db/schema";
import { defaultProfile } from "@/lib/agents/profiles";
import { messageTokenCount } from "@/lib/context/message-tokens";
import { loadSessionContext, measureContext } from "@/lib/context/session-context";
import { createOfflineModel } from "@/lib/demo-model/model";
import { runChatTurn } from "@/lib/runs/turn";
import { ms, openScratchDatabase, percentile, table } from "./support";

process.env.BATON_LOCAL_DELAY_MS = "0";
process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
process.env.BATON_LOCAL_CONTEXT_WINDOW = "400";

const RESETS = Number(process.env.BENCH_RESETS ?? 50);

/** The offline model, noting when each handoff (structured output) call returns. */
function timedModel(marks: { handoffReady?: number }): LanguageModelV3 {
  const inner = createOfflineModel();
  return {
    specificationVersion: "v3",
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    doGenerate: async (options) => {
      const result = await inner.doGenerate(options);
      if (options.responseFormat?.type === "json") marks.handoffReady = performance.now();
      return result;
    },
    doStream: (options) => inner.doStream(options),
  };
}

async function readUntilFirstText(response: Response): Promise<number | null> {
  const reader = response.body?.getReader();
  if (!reader) return null;
  const decoder = new TextDecoder();
  let buffer = "";
  let first: number | null = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    if (first === null && buffer.includes('"type":"text-delta"')) first = performance.now();
  }
  return first;
}

async function turn(actorId: string, threadId: string, text: string, model: LanguageModelV3) {
  const response = await runChatTurn({
    actor: { id: actorId, isAnonymous: true, email: null, name: "bench" },
    request: {
      trigger: "submit-message",
      id: threadId,
      message: { id: randomUUID(), role: "user", parts: [{ type: "text", text }] },
    },
    signal: new AbortController().signal,
    deps: { languageModel: () => model },
  });
  return readUntilFirstText(response);
}

async function benchResets(userId: string): Promise<number[]> {
  const samples: number[] = [];
  const filler =
    "Ordinary chatter about the harbour, the trains, the weather and the long walk by the river";
  for (let i = 0; i < RESETS; i++) {
    const threadId = randomUUID();
    const marks: { handoffReady?: number } = {};
    const model = timedModel(marks);
    await turn(userId, threadId, "remember the bench fact", model);
    for (let j = 0; j < 30 && marks.handoffReady === undefined; j++) {
      const firstText = await turn(userId, threadId, `${filler} ${j}`, model);
      await new Promise((r) => setTimeout(r, 5)); // let onFinish store the reply
      if (marks.handoffReady !== undefined && firstText !== null) {
        samples.push(firstText - marks.handoffReady);
      }
    }
  }
  return samples;
}

async function benchAccounting(userId: string, size: number): Promise<number[]> {
  const { getDb } = await import("@/db/client");
  const threadId = randomUUID();
  await ensureThread({ userId, threadId, model: "baton/local", title: "bench" });
  const session = await getCurrentSession({ userId, threadId });
  if (!session) throw new Error("no session");
  const text = "A typical message of a couple of dozen words about the work in progress here.";
  const rows = Array.from({ length: size }, (_, i) => ({
    threadId,
    id: `m${i}`,
    sessionId: session.id,
    seq: i + 1,
    role: (i % 2 === 0 ? "user" : "assistant") as "user" | "assistant",
    parts: [{ type: "text", text }],
    status: "complete" as const,
    tokenCount: messageTokenCount([{ type: "text", text }], "baton/local"),
  }));
  for (let i = 0; i < rows.length; i += 500)
    await getDb()
      .insert(messages)
      .values(rows.slice(i, i + 500));
  // As after a real turn: the last call reported usage up to two messages from the end.
  await recordSessionUsage({ sessionId: session.id, inputTokens: 1000, coveredSeq: size - 2 });
  const fresh = await getCurrentSession({ userId, threadId });
  if (!fresh) throw new Error("no session");
  const profile = defaultProfile();
  const system = (await loadSessionContext({ userId, threadId, session: fresh, profile })).system;
  const samples: number[] = [];
  for (let i = 0; i < 220; i++) {
    const start = performance.now();
    messageTokenCount([{ type: "text", text: `${text} ${i}` }], "baton/local");
    await measureContext({ session: fresh, system, modelId: "baton/local", profile });
    if (i >= 20) samples.push(performance.now() - start); // first 20 warm up
  }
  return samples;
}

const scratch = await openScratchDatabase("context");
try {
  const { getDb } = await import("@/db/client");
  const userId = randomUUID();
  await getDb()
    .insert(users)
    .values({ id: userId, name: "bench", email: `${userId}@bench.test` });
  const resets = await benchResets(userId);
  const small = await benchAccounting(userId, 20);
  const large = await benchAccounting(userId, 2000);
  console.log(
    `\n### Context engine on ${scratch.kind} (${new Date().toISOString().slice(0, 10)})\n`,
  );
  console.log(
    table(
      ["measure", "n", "median", "p99"],
      [
        [
          "reset overhead: handoff ready → first token of session N+1",
          resets.length,
          ms(percentile(resets, 50)),
          ms(percentile(resets, 99)),
        ],
        [
          "token accounting per turn, 20-message session",
          small.length,
          ms(percentile(small, 50)),
          ms(percentile(small, 99)),
        ],
        [
          "token accounting per turn, 2,000-message session",
          large.length,
          ms(percentile(large, 50)),
          ms(percentile(large, 99)),
        ],
      ],
    ),
  );
  console.log(
    `\nratio 2,000 / 20 (median): ${(percentile(large, 50) / percentile(small, 50)).toFixed(2)}`,
  );
} finally {
  await scratch.dispose();
}
